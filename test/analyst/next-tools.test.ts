import { describe, expect, it } from 'vitest';
import { triggerAlarmName } from '../../lib/analyst/alerts.ts';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { recordResult } from '../../lib/analyst/evidence-board.ts';
import { nextCalls } from '../../lib/analyst/next-tools.ts';
import { callFingerprint } from '../../lib/tools/call-fingerprint.ts';
import { at, boardFrom, series, step } from './board-builder.ts';

const START = '2026-05-01T10:00:00.000Z';
const tools = ['query_logs', 'search_runbooks', 'get_metrics'].map((name) => ({ name, description: '', inputSchema: {} }));

describe('the deep dive reads whoever generates the load on a shared capacity', () => {
  it('a resource several clients use, whatever its kind, has its clients\' logs read', () => {
    const board = boardFrom({
      brief: 'CloudWatch alarm "egress-errors" is in ALARM',
      services: [
        { name: 'payouts', kind: 'ecs', dependsOn: ['egress'] },
        { name: 'reconciler', kind: 'ecs', dependsOn: ['egress'] },
        { name: 'egress', kind: 'other' },
      ],
      alarms: [{ name: 'egress-errors', service: 'egress', state: 'ALARM', since: at(START, 95) }],
      metrics: [{ service: 'egress', name: 'ErrorPortAllocation', points: series(START, 120, step(90, 0, 4000)) }],
    });
    const diagnosis = diagnose(board);
    expect(diagnosis.root).toBe('egress');
    const asked = nextCalls(board, diagnosis, tools).filter((call) => call.name === 'query_logs').map((call) => call.arguments.service);
    expect(asked).toEqual(expect.arrayContaining(['payouts', 'reconciler']));
  });

  it('a client blamed for a shared resource\'s load by its timing alone has the resource\'s other clients read: one of them may have loaded it', () => {
    const board = boardFrom({
      brief: 'CloudWatch alarm "payouts-errors" is in ALARM',
      services: [
        { name: 'payouts', kind: 'ecs', dependsOn: ['egress', 'ledger'] },
        { name: 'reconciler', kind: 'ecs', dependsOn: ['egress'] },
        { name: 'egress', kind: 'other' },
        { name: 'ledger', kind: 'ecs' },
      ],
      alarms: [{ name: 'payouts-errors', service: 'payouts', state: 'ALARM', since: at(START, 95) }],
      metrics: [
        { service: 'payouts', name: 'RequestCount', points: series(START, 120, step(80, 100, 400)) },
        { service: 'egress', name: 'ErrorPortAllocation', points: series(START, 120, step(90, 0, 4000)) },
      ],
    });
    const diagnosis = diagnose(board);
    expect(diagnosis.principles).toContain('early-client-is-load');
    expect(diagnosis.root).toBe('payouts');
    const asked = nextCalls(board, diagnosis, tools).filter((call) => call.name === 'query_logs').map((call) => call.arguments.service);
    expect(asked).toContain('reconciler');
  });

  it('a root throttled by a table it shares, whose own calls surged, has the table\'s other clients read: one of them may hold its capacity', () => {
    const board = boardFrom({
      brief: 'CloudWatch alarm "checkins-errors" is in ALARM',
      services: [
        { name: 'checkins', kind: 'lambda', dependsOn: ['members'] },
        { name: 'report', kind: 'lambda', dependsOn: ['members'] },
        { name: 'members', kind: 'dynamodb' },
        { name: 'bookings', kind: 'ecs' },
      ],
      alarms: [{ name: 'checkins-errors', service: 'checkins', state: 'ALARM', since: at(START, 95) }],
      metrics: [{ service: 'checkins', name: 'Invocations', points: series(START, 120, step(60, 2000, 6000)) }],
      logs: [0, 1, 2, 3, 4, 5].map((index) => ({ service: 'checkins', timestamp: at(START, 92 + index), level: 'ERROR', message: 'GetItem members failed: ProvisionedThroughputExceededException: Rate of requests exceeds the allowed throughput' })),
    });
    const diagnosis = diagnose(board);
    expect(diagnosis.root).toBe('checkins');
    const asked = nextCalls(board, diagnosis, tools).filter((call) => call.name === 'query_logs').map((call) => call.arguments.service);
    expect(asked).toContain('report');
    expect(asked).not.toContain('bookings');
  });
});

describe('the alarm that fired, whose metric is compared with earlier days, is the one the brief says changed state', () => {
  it('an alarm trigger names it; a page, or a question quoting an alarm\'s name, fired no alarm', () => {
    expect(triggerAlarmName('CloudWatch alarm "ledger-write-throttles" changed to ALARM from OK at 2026-11-17T02:10:00Z in account 123456789012, region us-east-1.')).toBe('ledger-write-throttles');
    expect(triggerAlarmName('PagerDuty event incident.triggered at 2026-11-17T02:10:00Z.\nIncident: ledger writes failing')).toBeUndefined();
    expect(triggerAlarmName('A teammate asks: "CloudWatch alarm "ledger-write-throttles" was noisy last week, did anyone tune it?"')).toBeUndefined();
  });
});

describe('the metrics an alarm watches are compared with earlier days', () => {
  it('a metric math alarm is compared through the metrics its expression reads, not through the expression', () => {
    const brief = [
      'CloudWatch alarm "web-5xx-rate" changed to ALARM from OK at 2026-05-01T11:55:00Z in account 123456789012, region eu-west-1.',
      'Metrics:',
      '- e1: expression 100 * m1 / m2 (web 5xx %)',
      '- m1: AWS/ApplicationELB HTTPCode_Target_5XX_Count [TargetGroup=targetgroup/web/1], Sum over 60s',
      '- m2: AWS/ApplicationELB RequestCount [TargetGroup=targetgroup/web/1], Sum over 60s',
    ].join('\n');
    const board = boardFrom({
      brief,
      services: [{ name: 'web', kind: 'ecs' }],
      alarms: [{ name: 'web-5xx-rate', service: 'web', state: 'ALARM', since: at(START, 115) }],
      metrics: [{ service: 'web', name: 'HTTPCode_Target_5XX_Count', points: series(START, 120, step(110, 0, 40)) }],
    });
    const withMetrics = [...tools, { name: 'get_metrics', description: '', inputSchema: {} }];
    const compared = nextCalls(board, diagnose(board), withMetrics).filter((call) => call.name === 'get_metrics' && call.arguments.compareDaysBefore !== undefined);
    expect(compared.map((call) => call.arguments.name)).toEqual(['HTTPCode_Target_5XX_Count', 'RequestCount']);
  });
});

describe('a capped survey of metrics leaves series out', () => {
  it('a suspect some of whose series were left out has its own metrics read; one whose series all came back does not', () => {
    const board = boardFrom({
      brief: 'CloudWatch alarm "cdn-5xx" is in ALARM',
      services: [{ name: 'cdn', kind: 'cloudfront', dependsOn: ['web'] }, { name: 'web', kind: 'ecs' }, { name: 'batch', kind: 'ecs' }],
      alarms: [{ name: 'cdn-5xx', service: 'cdn', state: 'ALARM', since: at(START, 95) }],
      metrics: [
        { service: 'cdn', name: '5xxErrorRate', points: series(START, 120, step(90, 0, 10)) },
        { service: 'web', name: 'CPUUtilization', points: series(START, 120, step(90, 20, 97)) },
      ],
    });
    recordResult(board, 'get_metrics', 'E9', { available: true, series: [], seriesOmitted: 3, omittedSeries: ['cdn CacheHitRate', 'web CPUUtilization', 'batch CPUUtilization'] });
    // All of a service's metrics over the window read so far: not one measure, not earlier days.
    const metricsAsked = nextCalls(board, diagnose(board), tools)
      .filter((call) => call.name === 'get_metrics' && call.arguments.name === undefined && call.arguments.compareDaysBefore === undefined)
      .map((call) => call.arguments.service);
    expect(metricsAsked).toContain('cdn');
    // web's left-out series is already on the board; batch is no suspect.
    expect(metricsAsked).not.toContain('web');
    expect(metricsAsked).not.toContain('batch');
  });

  const sweepBoard = () => {
    const board = boardFrom({
      services: [{ name: 'web', kind: 'ecs', dependsOn: ['db'] }, { name: 'db', kind: 'rds' }, { name: 'batch', kind: 'ecs' }],
      metrics: [{ service: 'web', name: 'RequestCount', points: series(START, 120, () => 100) }],
    });
    recordResult(board, 'get_metrics', 'E9', { available: true, series: [], seriesOmitted: 2, omittedSeries: ['db FreeStorageSpace', 'db CPUUtilization'] });
    return board;
  };
  const metricsAskedIn = (board: ReturnType<typeof boardFrom>) =>
    nextCalls(board, diagnose(board), tools)
      .filter((call) => call.name === 'get_metrics' && call.arguments.compareDaysBefore === undefined)
      .map((call) => [call.arguments.service, call.arguments.name]);

  it('a sweep, which no alert narrows, reads the left-out series of every service, suspect or not', () => {
    expect(metricsAskedIn(sweepBoard())).toContainEqual(['db', undefined]);
  });

  it('what a capped read of the service left out too is read by name', () => {
    const board = sweepBoard();
    board.asked.add(callFingerprint('get_metrics', { service: 'db', sinceMinutes: 48 * 60 }));
    recordResult(board, 'get_metrics', 'E10', { available: true, series: [{ service: 'db', name: 'CPUUtilization', points: series(START, 120, () => 20) }], seriesOmitted: 1, omittedSeries: ['db FreeStorageSpace'] });
    expect(metricsAskedIn(board)).toEqual([['db', 'FreeStorageSpace']]);
  });
});

describe('the session a database names as holding the locks its clients wait for is looked up', () => {
  it('every line that mentions it, at any level and from any service, is asked for once the database is a suspect', () => {
    const waits = Array.from({ length: 20 }, (_, index) => ({
      service: 'ledger-db',
      timestamp: at(START, 60 + index),
      level: 'LOG',
      message: `10.0.9.${index}(40100):ledger_api@ledger:[${5100 + index}]:LOG:  process ${5100 + index} still waiting for RowExclusiveLock on relation 16871 after 1000.2 ms DETAIL:  Process holding the lock: 28841.`,
    }));
    const cancelled = waits.map((wait) => ({ ...wait, level: 'ERROR', message: `${wait.message.split('LOG:')[0]}ERROR:  canceling statement due to lock timeout` }));
    const board = boardFrom({
      brief: 'CloudWatch alarm "ledger-api-5xx" is in ALARM',
      services: [
        { name: 'ledger-api', kind: 'ecs', dependsOn: ['ledger-db'] },
        { name: 'ledger-db', kind: 'rds' },
      ],
      alarms: [{ name: 'ledger-api-5xx', service: 'ledger-api', state: 'ALARM', since: at(START, 63) }],
      metrics: [{ service: 'ledger-api', name: 'HTTPCode_Target_5XX_Count', points: series(START, 120, step(60, 0, 40)) }],
      logs: [...waits, ...cancelled, ...Array.from({ length: 20 }, (_, index) => ({ service: 'ledger-api', timestamp: at(START, 61 + index), level: 'ERROR', message: 'POST /entries failed: canceling statement due to lock timeout' }))],
    });
    const lookups = nextCalls(board, diagnose(board), tools).filter((call) => call.name === 'query_logs' && call.arguments.contains !== undefined);
    expect(lookups).toEqual([{ name: 'query_logs', arguments: { contains: '28841', minLevel: 'DEBUG', sinceMinutes: 240, limit: 50 } }]);
  });
});

describe('a database whose measure of its oldest idle transaction dates when that transaction opened', () => {
  it('has every line of that minute read, from any service: whoever connected or began work then opened it', () => {
    const board = boardFrom({
      brief: 'CloudWatch alarm "ledger-api-5xx" is in ALARM',
      services: [
        { name: 'ledger-api', kind: 'ecs', dependsOn: ['ledger-db'] },
        { name: 'ledger-db', kind: 'rds' },
      ],
      alarms: [{ name: 'ledger-api-5xx', service: 'ledger-api', state: 'ALARM', since: at(START, 100) }],
      metrics: [
        { service: 'ledger-api', name: 'HTTPCode_Target_5XX_Count', points: series(START, 120, step(95, 0, 40)) },
        { service: 'ledger-db', name: 'db.state.idle_in_transaction_max_time.avg', unit: 'Seconds', points: series(START, 120, (minute) => (minute < 20 ? 0 : (minute - 20) * 60)) },
      ],
      logs: Array.from({ length: 10 }, (_, index) => ({ service: 'ledger-api', timestamp: at(START, 96 + index), level: 'ERROR', message: 'GET /lines 500: canceling statement due to statement timeout' })),
    });
    const opening = nextCalls(board, diagnose(board), tools).filter((call) => call.name === 'query_logs' && call.arguments.service === undefined && call.arguments.from !== undefined);
    expect(opening).toEqual([{ name: 'query_logs', arguments: { minLevel: 'DEBUG', from: at(START, 19), to: at(START, 21), limit: 50 } }]);
  });
});

describe('a report that names a measure', () => {
  it('has that measure compared with earlier days, though a capped result left it out; one naming none has its service compared', () => {
    const reported = (text: string) => {
      const board = boardFrom({
        brief: `A teammate asks: "${text}"\nThey are asking about the service onboarding-api.\nThey are asking about the time since ${at(START, 60)}.`,
        services: [{ name: 'onboarding-api', kind: 'ecs' }],
        metrics: [{ service: 'onboarding-api', name: 'RequestCount', points: series(START, 120, () => 1100) }],
      });
      recordResult(board, 'get_metrics', 'E9', { available: true, series: [], seriesOmitted: 2, omittedSeries: ['onboarding-api SignupsStarted', 'billing SignupsStarted'] });
      return nextCalls(board, diagnose(board), tools)
        .filter((call) => call.name === 'get_metrics' && call.arguments.compareDaysBefore !== undefined)
        .map((call) => [call.arguments.service, call.arguments.name]);
    };
    expect(reported('Sign-ups look way down since this morning.')).toEqual([['onboarding-api', 'SignupsStarted']]);
    expect(reported('Everything looks way down since this morning.')).toEqual([['onboarding-api', undefined]]);
  });
});

describe('an incident nothing explains reads where its data comes from', () => {
  const services = [
    { name: 'shop-web', kind: 'ecs', dependsOn: ['quote-api'] },
    { name: 'quote-api', kind: 'ecs', dependsOn: ['rates-table'] },
    { name: 'rates-loader', kind: 'lambda', dependsOn: ['rates-table'] },
    { name: 'rates-table', kind: 'dynamodb' },
  ];
  const wholeStretchReads = (alarmed: boolean, reason: string) => {
    const board = boardFrom({
      brief: 'CloudWatch alarm "shop-orders-anomaly" is in ALARM',
      services,
      alarms: [{ name: 'shop-orders-anomaly', service: 'shop-web', state: alarmed ? 'ALARM' : 'OK', since: at(START, 95), reason }],
      logs: [{ service: 'shop-web', timestamp: at(START, 96), level: 'ERROR', message: reason }],
    });
    const diagnosis = diagnose(board);
    return nextCalls(board, diagnosis, tools)
      .filter((call) => call.name === 'query_logs' && call.arguments.sinceMinutes !== undefined)
      .map((call) => call.arguments.service);
  };

  it('the code the symptom calls and the code that writes what it reads, over the whole stretch', () => {
    expect(wholeStretchReads(true, 'orders per minute outside the expected band')).toEqual(expect.arrayContaining(['quote-api', 'rates-loader']));
  });

  it('not when the cause is already named (a connection limit)', () => {
    expect(wholeStretchReads(true, 'FATAL: remaining connection slots are reserved; too many connections')).not.toContain('rates-loader');
  });
});

describe('a record a reader fails on again and again', () => {
  it('is looked up by its name in each writer\'s logs: neither the moment a line carries nor an attempt\'s own id names it', () => {
    const failures = (minutes: number[]) => minutes.map((minute) => ({
      service: 'fulfiller',
      timestamp: at(START, minute),
      level: 'ERROR',
      message: `${at(START, minute)}\t${minute}d36ba2-c7eb\tERROR\tfailed to parse OrderPlaced messageId=5e0b9f4c-27a1: ZodError: expected number, received object`,
    }));
    const board = (minutes: number[]) => boardFrom({
      brief: 'CloudWatch alarm "fulfiller-errors" is in ALARM',
      services: [
        { name: 'order-svc', kind: 'ecs', dependsOn: ['fulfilment-queue'] },
        { name: 'fulfilment-queue', kind: 'sqs' },
        { name: 'fulfiller', kind: 'lambda', dependsOn: ['fulfilment-queue'] },
      ],
      alarms: [{ name: 'fulfiller-errors', service: 'fulfiller', state: 'ALARM', since: at(START, 53) }],
      logs: failures(minutes),
    });
    const lookups = (minutes: number[]) =>
      nextCalls(board(minutes), diagnose(board(minutes)), tools).filter((call) => call.name === 'query_logs' && call.arguments.contains !== undefined).map((call) => call.arguments);
    expect(lookups([52, 54, 56, 58])).toEqual([expect.objectContaining({ service: 'order-svc', contains: '5e0b9f4c-27a1' })]);
    // Failed on once, a record is no more than one attempt's.
    expect(lookups([52])).toEqual([]);
  });
});

describe('the runbook search, asked last', () => {
  it('quotes the root\'s errors up to 400 characters, cut between words, and is asked once', () => {
    const errors = ['rank', 'streak', 'badge'].map(
      (field) => `TypeError: Cannot read properties of undefined (reading '${field}') while scoring the daily challenge for the leaderboard; see https://docs.aws.amazon.com/lambda/latest/dg/nodejs-exceptions.html`,
    );
    const board = boardFrom({
      brief: 'CloudWatch alarm "scores-errors" is in ALARM',
      services: [
        { name: 'scores', kind: 'lambda', dependsOn: ['scores-table'] },
        { name: 'scores-table', kind: 'dynamodb' },
      ],
      alarms: [{ name: 'scores-errors', service: 'scores', state: 'ALARM', since: at(START, 95) }],
      changes: [{ service: 'scores', timestamp: at(START, 88), kind: 'deploy', summary: 'scores v2.4.0 deployed' }],
      logs: Array.from({ length: 12 }, (_, index) => ({ service: 'scores', timestamp: at(START, 90 + index), level: 'ERROR', message: errors[index % 3]! })),
    });
    const diagnosis = diagnose(board);
    let planned = nextCalls(board, diagnosis, tools);
    for (let turn = 0; turn < 10 && planned.length > 0 && !planned.some((call) => call.name === 'search_runbooks'); turn++) {
      for (const call of planned) board.asked.add(callFingerprint(call.name, call.arguments));
      planned = nextCalls(board, diagnosis, tools);
    }
    const search = planned.find((call) => call.name === 'search_runbooks');
    expect(search).toBeDefined();
    const query = String(search!.arguments.query);
    const quoted = [diagnosis.root, diagnosis.category, diagnosis.suspectChange?.kind, ...diagnosis.rootSignals.map((signal) => signal.text)].join(' ');
    expect(quoted.length).toBeGreaterThan(400);
    expect(query.length).toBeLessThanOrEqual(400);
    expect(query.length).toBeGreaterThan(300);
    // Every word of the query is a whole word of what it quotes.
    const words = new Set(quoted.split(/\s+/));
    for (const word of query.split(/\s+/)) expect(words).toContain(word);
    for (const call of planned) board.asked.add(callFingerprint(call.name, call.arguments));
    expect(nextCalls(board, diagnosis, tools).filter((call) => call.name === 'search_runbooks')).toEqual([]);
  });

  it('reads the runbooks of an alerting service nothing explains yet, by the alarm it raised', () => {
    const board = boardFrom({
      brief: 'Scheduled health sweep',
      services: [{ name: 'billing-queue', kind: 'sqs' }],
      alarms: [{ name: 'billing-queue-backlog', service: 'billing-queue', state: 'ALARM', since: at(START, 40) }],
      metrics: [{ service: 'billing-queue', name: 'ApproximateNumberOfMessagesVisible', points: series(START, 60, (minute) => (minute < 38 ? 10 : 90_000)) }],
    });
    const diagnosis = diagnose(board);
    let planned = nextCalls(board, diagnosis, tools);
    for (let turn = 0; turn < 10 && planned.length > 0 && !planned.some((call) => call.name === 'search_runbooks'); turn++) {
      for (const call of planned) board.asked.add(callFingerprint(call.name, call.arguments));
      planned = nextCalls(board, diagnosis, tools);
    }
    expect(planned.filter((call) => call.name === 'search_runbooks').map((call) => call.arguments)).toContainEqual({ query: 'billing-queue-backlog billing-queue', service: 'billing-queue', limit: 3 });
  });
});
