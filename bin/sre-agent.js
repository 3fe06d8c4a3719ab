#!/usr/bin/env node
// The AWS SDK warns about Node 20 on every client; the project supports Node 20 locally on purpose.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
process.env.AWS_SDK_JS_SUPPRESS_NODE_VERSION_WARNING ??= '1';

// Piping into `head` closes stdout early; that is the reader's choice, not a failure.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

const { register } = await import('tsx/esm/api');
register();
const { main } = await import('../local/cli/main.ts');
process.exitCode = await main(process.argv);
