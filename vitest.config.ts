import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    fileParallelism: true,
    maxWorkers: 2,
    env: { AWS_SDK_JS_SUPPRESS_NODE_VERSION_WARNING: '1', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', POWERTOOLS_DEV: 'false' },
  },
});
