import { OutputFormat, type BundlingOptions } from 'aws-cdk-lib/aws-lambda-nodejs';

/**
 * How every function is bundled: ESM for Node.js 22 with the local esbuild (no Docker), minified
 * with source maps, and a `require` for the CommonJS dependencies that still call it.
 */
export const esmBundling: BundlingOptions = {
  format: OutputFormat.ESM,
  mainFields: ['module', 'main'],
  banner: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);",
  minify: true,
  sourceMap: true,
  target: 'node22',
  forceDockerBundling: false,
};
