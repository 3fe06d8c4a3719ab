import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, linesFrom, series } from './board-builder.ts';

const START = '2026-12-01T04:00:00.000Z';
const lines = linesFrom(START);

interface Shop {
  /** Server errors counted per minute before minute 60, and from then on. */
  errorsPerMinute: { before: number; after: number };
  /** Minutes between the service's logged 500s, from minute 50. */
  loggedEvery: number;
  /** What each logged error says. */
  message?: string;
}

/** A page on latency that came and went; the service's logs show some 500s late in the evidence. */
const shop = ({ errorsPerMinute, loggedEvery, message = 'POST /v3/holds 500 request aborted: client closed connection before response' }: Shop) =>
  boardFrom({
    brief: 'PagerDuty incident "slot-api latency high"',
    services: [{ name: 'slot-api', kind: 'ecs' }],
    alarms: [{ name: 'slot-api-latency-high', service: 'slot-api', state: 'OK', since: at(START, 70) }],
    logs: [
      ...lines('slot-api', 0, 5, 24, 'INFO', (index) => `GET /v3/slots?zone=${index} 200 41ms`),
      ...lines('slot-api', 50, loggedEvery, Math.floor(60 / loggedEvery), 'ERROR', (index) => `${message} (reserve_id=a${index}f)`),
    ].sort((a, b) => a.timestamp.localeCompare(b.timestamp)),
    metrics: [
      { service: 'slot-api', name: 'HTTPCode_Target_5XX_Count', stat: 'Sum', periodSeconds: 60, points: series(START, 120, (minute) => (minute < 60 ? errorsPerMinute.before : errorsPerMinute.after)) },
      { service: 'slot-api', name: 'RequestCount', stat: 'Sum', periodSeconds: 60, points: series(START, 120, () => 1500) },
      { service: 'slot-api', name: 'TargetResponseTime', stat: 'p99', periodSeconds: 60, points: series(START, 120, (minute) => (minute >= 65 && minute < 85 ? 0.9 : 0.17)) },
    ],
  });

describe('server errors a service already counted at that rate', () => {
  it('are its background, though its logs show them only late in the evidence', () => {
    const { draft } = diagnose(shop({ errorsPerMinute: { before: 1, after: 1 }, loggedEvery: 10 }));
    expect(draft.incident).toBe(false);
  });

  it('count when the count was lower before them, when it rose with them, or when the lines are not server errors', () => {
    expect(diagnose(shop({ errorsPerMinute: { before: 0, after: 0 }, loggedEvery: 10 })).draft.incident).toBe(true);
    expect(diagnose(shop({ errorsPerMinute: { before: 1, after: 30 }, loggedEvery: 10 })).draft.incident).toBe(true);
    expect(diagnose(shop({ errorsPerMinute: { before: 0.05, after: 0.05 }, loggedEvery: 2 })).draft.incident).toBe(true);
    expect(diagnose(shop({ errorsPerMinute: { before: 1, after: 1 }, loggedEvery: 10, message: 'hold failed: connection refused to slots-db' })).draft.incident).toBe(true);
  });
});
