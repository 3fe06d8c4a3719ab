import { readFileSync } from 'node:fs';

/**
 * The context of cdk.json (feature flags and defaults), so tests synthesize the stack exactly as
 * `cdk synth` does. `nag` is dropped: tests apply cdk-nag themselves.
 */
export function cdkJsonContext(): Record<string, unknown> {
  const cdkJson = JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')) as {
    context?: Record<string, unknown>;
  };
  const { nag: _nag, ...context } = cdkJson.context ?? {};
  return context;
}
