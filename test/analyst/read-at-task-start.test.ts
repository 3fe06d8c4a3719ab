import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, linesFrom, series, sorted, step } from './board-builder.ts';

const START = '2026-06-16T15:00:00.000Z';
const lines = linesFrom(START);

/** An image repository's policy changed at minute 10; the service scales at minute 130 and its new tasks cannot pull their image. */
const scaledOut = (summary: string, failure = 'task stopped: CannotPullContainerError: pull image manifest: 403 Forbidden: explicit deny in a resource-based policy') =>
  diagnose(
    boardFrom({
      brief: 'CloudWatch alarm "checkout-5xx" changed to ALARM at 2026-06-16T17:20:00Z.',
      services: [
        { name: 'web', kind: 'ecs', dependsOn: ['checkout'] },
        { name: 'checkout', kind: 'ecs', dependsOn: ['checkout-images', 'orders-db'] },
        { name: 'checkout-images', kind: 'other' },
        { name: 'orders-db', kind: 'rds' },
      ],
      alarms: [{ name: 'checkout-5xx', service: 'checkout', state: 'ALARM', since: at(START, 140) }],
      changes: [
        { service: 'checkout-images', timestamp: at(START, 10), kind: 'iam', summary: 'SetRepositoryPolicy on shop/checkout' },
        { service: 'checkout', timestamp: at(START, 130), kind: 'scaling', summary },
      ],
      metrics: [{ service: 'checkout', name: 'HTTPCode_Target_5XX_Count', points: series(START, 160, step(134, 1, 90)) }],
      logs: sorted([
        ...lines('checkout', 0, 3, 50, 'INFO', (index) => `GET /api/checkout/session 200 ${30 + (index % 7)}ms`),
        ...lines('checkout', 132, 2, 12, 'ERROR', () => failure),
      ]),
    }),
  );

describe('what tasks read only when they start', () => {
  it('a change to it shows at its caller’s next scale-out, hours after it was made', () => {
    const diagnosis = scaledOut('Service auto scaling: desired count 6 -> 9');
    expect(diagnosis.root).toBe('checkout-images');
    expect(diagnosis.principles).toContain('change-shows-when-work-resumes');
  });

  it('is only what tasks fail on as they start: a dependency they fail on while running was read all along', () => {
    const diagnosis = scaledOut('Service auto scaling: desired count 6 -> 9', 'GET /api/checkout/session 503: access denied reading checkout-images (403 Forbidden)');
    expect(diagnosis.principles).not.toContain('change-shows-when-work-resumes');
  });

  it('a scale-in starts no task', () => {
    expect(scaledOut('Service auto scaling: desired count 9 -> 6').principles).not.toContain('change-shows-when-work-resumes');
  });
});
