import { describe, expect, it } from 'vitest';
import type { Alert } from '../../lib/analyst/alerts.ts';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { errorsAfterAlert } from '../../lib/analyst/health-verdict.ts';
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

interface Watched {
  /** When the service's own alarm on its 503s last went OK, in minutes after the start. */
  alarmOkSince?: number;
  /** Minutes between the logged 503s, from minute 20. */
  loggedEvery: number;
}

/** An alarm on a partner API's 4xx that fired and recovered; the label service behind it logs a 503 now and then. */
const labels = ({ alarmOkSince, loggedEvery }: Watched) =>
  boardFrom({
    brief: 'CloudWatch alarm "partner-api-4xx-rate" changed to ALARM at 2026-12-01T05:10:00.000Z',
    services: [
      { name: 'partner-api', kind: 'apigateway', dependsOn: ['labels-svc'] },
      { name: 'labels-svc', kind: 'ecs' },
    ],
    alarms: [
      { name: 'partner-api-4xx-rate', service: 'partner-api', state: 'OK', since: at(START, 90) },
      ...(alarmOkSince === undefined ? [] : [{ name: 'labels-svc-503-rate', service: 'labels-svc', state: 'OK' as const, since: at(START, alarmOkSince) }]),
    ],
    logs: [
      ...lines('partner-api', 0, 4, 30, 'INFO', (index) => `POST /v1/shipments 201 key=pk_${index}`),
      ...lines('labels-svc', 20, loggedEvery, Math.floor(100 / loggedEvery), 'ERROR', () => 'level=error msg="pdf renderer pool exhausted, returning 503" queue=64'),
    ].sort((a, b) => a.timestamp.localeCompare(b.timestamp)),
    metrics: [{ service: 'partner-api', name: '4XXError', stat: 'Average', periodSeconds: 60, points: series(START, 120, (minute) => (minute >= 70 && minute < 86 ? 0.2 : 0.01)) }],
  });

describe('server errors logged now and then under the service\'s own alarm on them', () => {
  it('are under what its owners page on: the recovered alarm leaves the system healthy', () => {
    expect(diagnose(labels({ alarmOkSince: -30, loggedEvery: 25 })).draft.incident).toBe(false);
  });

  it('count when the alarm went OK only after they began, when no alarm watches them, or when they come often', () => {
    expect(diagnose(labels({ alarmOkSince: 30, loggedEvery: 25 })).draft.incident).toBe(true);
    expect(diagnose(labels({ loggedEvery: 25 })).draft.incident).toBe(true);
    expect(diagnose(labels({ alarmOkSince: -30, loggedEvery: 3 })).draft.incident).toBe(true);
  });
});

/** A busy alarm during a nightly run: job items failed, while the worker's own alarm on its failures says OK (or ALARM, or is missing). */
const nightlyRun = ({ errorAlarm, failedItems }: { errorAlarm?: 'OK' | 'ALARM'; failedItems: number }) =>
  boardFrom({
    services: [
      { name: 'render-jobs', kind: 'sqs' },
      { name: 'render-worker', kind: 'ecs', dependsOn: ['render-jobs'] },
    ],
    alarms: [
      { name: 'render-worker-busy', service: 'render-worker', state: 'ALARM', since: at(START, 5) },
      ...(errorAlarm ? [{ name: 'render-worker-failure-rate', service: 'render-worker', state: errorAlarm, since: at(START, -600) }] : []),
    ],
    logs: [
      ...lines('render-worker', 0, 3, 40, 'INFO', (index) => `rendered batch b-${index}00 docs=5000`),
      ...lines('render-worker', 30, 2, failedItems, 'ERROR', (index) => `render failed doc=D-77${index}1: TemplateMissing(tpl=T-9${index}); left for retry`),
    ].sort((a, b) => a.timestamp.localeCompare(b.timestamp)),
  });

const busy: Alert = { source: 'alarm', name: 'alarm render-worker-busy', service: 'render-worker', since: Date.parse(at(START, 5)) };

describe('failed work items logged now and then under the service\'s own alarm on its failures', () => {
  it('are under what its owners page on, over all the time since the alert', () => {
    expect(errorsAfterAlert(nightlyRun({ errorAlarm: 'OK', failedItems: 1 }), busy)).toEqual([]);
  });

  it('count when no such alarm watches them, when it is in ALARM, or when they come often', () => {
    expect(errorsAfterAlert(nightlyRun({ failedItems: 1 }), busy)).toHaveLength(1);
    expect(errorsAfterAlert(nightlyRun({ errorAlarm: 'ALARM', failedItems: 1 }), busy)).toHaveLength(1);
    expect(errorsAfterAlert(nightlyRun({ errorAlarm: 'OK', failedItems: 30 }), busy).length).toBeGreaterThan(1);
  });

  it('count when an alert says that alarm fired, whatever an older listing says of it', () => {
    const fired: Alert = { source: 'alarm', name: 'alarm render-worker-failure-rate', service: 'render-worker', since: Date.parse(at(START, 20)) };
    expect(errorsAfterAlert(nightlyRun({ errorAlarm: 'OK', failedItems: 1 }), busy, [busy, fired])).toHaveLength(1);
  });
});
