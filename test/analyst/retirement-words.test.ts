import { describe, expect, it } from 'vitest';
import { inferCause } from '../../lib/analyst/infer-cause.ts';
import { at, boardFrom, series } from './board-builder.ts';

const START = '2026-08-11T09:00:00.000Z';

/** A queue whose heartbeat alarm treats missing data as breaching, after a change recorded at it. */
const heartbeatAfter = (summary: string) =>
  inferCause(
    boardFrom({
      brief: 'CloudWatch alarm legacy-events-no-traffic is in ALARM',
      services: [{ name: 'legacy-events', kind: 'sqs' }],
      alarms: [{ name: 'legacy-events-no-traffic', service: 'legacy-events', state: 'ALARM', since: at(START, 80) }],
      changes: [{ service: 'legacy-events', timestamp: at(START, 62), kind: 'infrastructure', summary }],
      metrics: [{ service: 'legacy-events', name: 'NumberOfMessagesSent', periodSeconds: 300, points: series(START, 60, () => 1200) }],
    }),
  ).verdict;

describe('a retirement recorded at a resource', () => {
  it('explains the silence of that resource, said in the base form, beside a duration and a ticket', () => {
    expect(heartbeatAfter('DeleteQueue legacy-events (FIN-2231: retire legacy queue after 14-day dual run)')).toBe('healthy');
  });

  it('does not explain it when the retirement is of another resource, or when nothing was retired', () => {
    expect(heartbeatAfter('DeleteQueue legacy-events (FIN-2231: retire reports-archive after 14-day dual run)')).toBe('incident');
    expect(heartbeatAfter('DeleteQueue legacy-events (FIN-2231)')).toBe('incident');
  });
});
