import { CloudWatchLogsClient, GetQueryResultsCommand, StartQueryCommand, type ResultField, type StartQueryCommandInput } from '@aws-sdk/client-cloudwatch-logs';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServiceCatalog, ServiceResources } from '../../../integrations/aws/catalog.ts';
import { AwsClients } from '../../../integrations/aws/clients.ts';
import { serviceException, type ServiceEmulation } from '../../../integrations/aws/emulation/emulator.ts';
import { linesQuery } from '../../../integrations/aws/logs/insights-query.ts';
import { parseLogMessage } from '../../../integrations/aws/logs/log-record.ts';
import { QueryLimiter } from '../../../integrations/aws/logs/query-limiter.ts';
import { queryLogs } from '../../../integrations/aws/logs/query-logs.ts';
import { awsToolSettings } from '../../../integrations/aws/settings.ts';
import { RecordedEnvironment } from '../../../integrations/scenario/recorded-environment.ts';
import { Toolbox } from '../../../lib/tools/toolbox.ts';

const logs = mockClient(CloudWatchLogsClient);
afterEach(() => logs.reset());

const now = new Date('2026-04-06T04:10:00Z');
const fast = { insights: { pollIntervalsMs: [1] }, limiter: { concurrency: 7, spacingMs: 0 } };

const catalogOf = (services: Pick<ServiceResources, 'name' | 'logGroups'>[]): ServiceCatalog => {
  const full = services.map((service) => ({ arns: [], tags: {}, dimensions: [], ...service }));
  return {
    services: async () => full,
    serviceOfArn: async () => undefined,
    serviceOfDimensions: async () => undefined,
    serviceOfLogGroup: async (group) => full.find((service) => service.logGroups.includes(group))?.name,
  };
};

const orders = { name: 'orders', logGroups: ['/ecs/orders'] };

const toolbox = (catalog: ServiceCatalog, settings: Record<string, unknown> = {}, clients = new AwsClients('us-east-1', { kind: 'live' })) =>
  new Toolbox([queryLogs({ clients, catalog, settings: awsToolSettings.parse(settings) }, fast)]);

const run = async (box: Toolbox, args: Record<string, unknown> = {}) => {
  const outcome = await box.execute({ id: 'c', name: 'query_logs', arguments: args }, { now });
  if (!outcome.ok) throw new Error(outcome.error);
  return { summary: outcome.summary, data: outcome.data as Record<string, any> };
};

const row = (timestamp: string, message: string, group = '/ecs/orders', pointer = `${timestamp}${message}`): ResultField[] => [
  { field: '@timestamp', value: timestamp },
  { field: '@message', value: message },
  { field: '@log', value: `123456789012:${group}` },
  { field: '@ptr', value: pointer },
];

describe('query_logs on Logs Insights', () => {
  it('gives a line in a log group several services write to the service it names, and drops the service key that repeats it', async () => {
    const shared = '/aws/events/ecs-task-state-change';
    logs.on(StartQueryCommand).resolves({ queryId: 'q-1' });
    logs.on(GetQueryResultsCommand).resolves({
      status: 'Complete',
      results: [
        row('2026-04-06 04:00:10.000', '{"level":"ERROR","message":"task 5cce STOPPED: OutOfMemoryError","service":"seatmap-svc"}', shared),
        row('2026-04-06 04:01:00.000', '{"level":"WARN","message":"(service loyalty-badges) rolling back to deployment ecs-svc/3388"}', shared),
        row('2026-04-06 04:02:00.000', '{"level":"WARN","message":"task 81e0 STOPPED"}', shared),
      ],
    });
    const catalog = catalogOf([
      { name: 'loyalty-badges', logGroups: ['/ecs/loyalty-badges', shared] },
      { name: 'seatmap-svc', logGroups: ['/ecs/seatmap-svc', shared] },
    ]);
    const { data } = await run(toolbox(catalog), { minLevel: 'WARN' });
    expect(data.lines.map((line: { service: string; fields?: unknown }) => [line.service, line.fields])).toEqual([
      ['seatmap-svc', undefined],
      ['loyalty-badges', undefined],
      // Nothing names its source: the group's first owner.
      ['loyalty-badges', undefined],
    ]);
  });

  it('polls a running query to completion and reads JSON, Lambda and plain-text lines', async () => {
    logs.on(StartQueryCommand).resolves({ queryId: 'q-1' });
    logs
      .on(GetQueryResultsCommand)
      .resolvesOnce({ status: 'Running', results: [] })
      .resolves({
        status: 'Complete',
        results: [
          row('2026-04-06 04:00:10.000', '{"level":"FATAL","message":"migration 0042 failed","version":"1.8.3"}'),
          row('2026-04-06 04:01:00.000', '2026-04-06T04:01:00.000Z\t5f1c\tERROR\tGET inventory 500 after 31ms', '/aws/lambda/orders-fn'),
          row('2026-04-06 04:02:00.000', '[WARN] slow response 900ms'),
        ],
      });
    const catalog = catalogOf([{ name: 'orders', logGroups: ['/ecs/orders', '/aws/lambda/orders-fn'] }]);
    const { data } = await run(toolbox(catalog), { minLevel: 'WARN' });

    const start = logs.commandCalls(StartQueryCommand)[0]?.args[0].input as StartQueryCommandInput;
    expect(start.logGroupNames).toEqual(['/aws/lambda/orders-fn', '/ecs/orders']);
    expect(start.endTime).toBe(now.getTime() / 1000);
    expect(start.startTime).toBe(now.getTime() / 1000 - 120 * 60);
    expect(start.queryString).toContain('filter @message like');
    expect(logs.commandCalls(GetQueryResultsCommand)).toHaveLength(2);
    expect(data.matched).toBe(3);
    expect(data.lines).toEqual([
      { timestamp: '2026-04-06T04:00:10.000Z', service: 'orders', level: 'FATAL', message: 'migration 0042 failed', fields: { version: '1.8.3' } },
      { timestamp: '2026-04-06T04:01:00.000Z', service: 'orders', level: 'ERROR', message: 'GET inventory 500 after 31ms' },
      { timestamp: '2026-04-06T04:02:00.000Z', service: 'orders', level: 'WARN', message: 'slow response 900ms' },
    ]);
    expect(data.templates[0]).toMatchObject({ template: 'migration <*> failed', count: 1, levels: { FATAL: 1 } });
  });

  it('answers an empty window with no lines, not an error', async () => {
    logs.on(StartQueryCommand).resolves({ queryId: 'q-1' });
    logs.on(GetQueryResultsCommand).resolves({ status: 'Complete', results: [] });
    const { data, summary } = await run(toolbox(catalogOf([orders])));
    expect(data).toEqual({ available: true, matched: 0, lines: [], templates: [] });
    expect(summary).toMatch(/^0 log lines matched/);
  });

  it('reports a denied StartQuery as no data naming the action, without throwing', async () => {
    logs.on(StartQueryCommand).rejects(Object.assign(new Error('not authorized to perform: logs:StartQuery'), { name: 'AccessDeniedException' }));
    const { data } = await run(toolbox(catalogOf([orders])));
    expect(data.available).toBe(false);
    expect(data.reason).toMatch(/logs:StartQuery/);
  });

  it('says which service names exist when asked for an unknown one, and no data when no log group is known', async () => {
    const unknown = await run(toolbox(catalogOf([orders])), { service: 'billing' });
    expect(unknown.summary).toMatch(/no service named billing; known: orders/);
    const none = await run(toolbox(catalogOf([{ name: 'orders', logGroups: [] }])));
    expect(none.data.available).toBe(false);
    expect(logs.commandCalls(StartQueryCommand)).toHaveLength(0);
  });

  it('hands back the queryId when the deadline passes, and a later call with it fetches the result', async () => {
    logs.on(StartQueryCommand).resolves({ queryId: 'q-slow' });
    logs.on(GetQueryResultsCommand).resolves({ status: 'Running', results: [] });
    const box = toolbox(catalogOf([orders]), { insightsDeadlineSeconds: 1 });
    const first = await run(box);
    expect(first.data.incomplete).toEqual({ queryId: 'q-slow', reason: expect.stringMatching(/still running at the deadline/) });

    logs.on(GetQueryResultsCommand).resolves({ status: 'Complete', results: [row('2026-04-06 04:05:00.000', '{"level":"ERROR","message":"boom"}')] });
    const later = await run(box, { queryId: first.data.incomplete.queryId });
    expect(logs.commandCalls(StartQueryCommand)).toHaveLength(1);
    expect(later.data.incomplete).toBeUndefined();
    expect(later.data.lines).toEqual([{ timestamp: '2026-04-06T04:05:00.000Z', service: 'orders', level: 'ERROR', message: 'boom' }]);
  });

  it('splits a window that hits the 10,000-row cap and reads every line once', async () => {
    // 25,000 events, one every 0.25 s before now: no single query may return them all.
    const total = 25_000;
    const events = Array.from({ length: total }, (_, index) => now.getTime() - (total - index) * 250);
    const windows: [number, number][] = [];
    logs.on(StartQueryCommand).callsFake((input: StartQueryCommandInput) => {
      windows.push([input.startTime ?? 0, input.endTime ?? 0]);
      return { queryId: `${input.startTime}-${input.endTime}` };
    });
    logs.on(GetQueryResultsCommand).callsFake(({ queryId }: { queryId: string }) => {
      const [start = 0, end = 0] = queryId.split('-').map(Number);
      const inWindow = events.filter((millis) => millis >= start * 1000 && millis < (end + 1) * 1000).slice(0, 10_000);
      return { status: 'Complete', results: inWindow.map((millis, index) => row(new Date(millis).toISOString().replace('T', ' ').replace('Z', ''), `INFO tick ${index}`, '/ecs/orders', String(millis))) };
    });
    const { data } = await run(toolbox(catalogOf([orders])), { limit: 10 });
    expect(windows.length).toBeGreaterThan(3);
    expect(data.matched).toBe(total);
    expect(data.incomplete).toBeUndefined();
    expect(data.lines).toHaveLength(10);
    expect(data.templates).toEqual([expect.objectContaining({ template: 'tick <*>', count: total })]);
  });

  it('queries at most 50 log groups at a time and at most 7 queries at once', async () => {
    const groups = Array.from({ length: 120 }, (_, index) => `/aws/lambda/fn-${String(index).padStart(3, '0')}`);
    let running = 0;
    let mostRunning = 0;
    logs.on(StartQueryCommand).callsFake(() => {
      running++;
      mostRunning = Math.max(mostRunning, running);
      return { queryId: `q-${running}` };
    });
    logs.on(GetQueryResultsCommand).callsFake(async () => {
      running--;
      return { status: 'Complete', results: [] };
    });
    await run(toolbox(catalogOf(groups.map((group, index) => ({ name: `fn-${index}`, logGroups: [group] })))));
    const sizes = logs.commandCalls(StartQueryCommand).map((call) => (call.args[0].input as StartQueryCommandInput).logGroupNames?.length);
    expect(sizes).toEqual([50, 50, 20]);
    expect(mostRunning).toBeLessThanOrEqual(7);
  });

  it('leaves a throttled StartQuery to the SDK retry strategy', async () => {
    let attempts = 0;
    const emulation: ServiceEmulation = {
      StartQueryCommand: () => {
        attempts++;
        if (attempts === 1) throw serviceException('ThrottlingException', 'Rate exceeded');
        return { queryId: 'q-after-retry' };
      },
      GetQueryResultsCommand: () => ({ status: 'Complete', results: [row('2026-04-06 04:05:00.000', 'ERROR boom')] }),
    };
    const clients = new AwsClients('us-east-1', {
      kind: 'emulated',
      environment: new RecordedEnvironment({}, now),
      emulations: new Map([['CloudWatchLogsClient', emulation]]),
    });
    logs.restore();
    const { data } = await run(toolbox(catalogOf([orders]), {}, clients));
    expect(attempts).toBe(2);
    expect(data.matched).toBe(1);
  });
});

describe('the Insights query and the log line reader', () => {
  it('filters levels at or above the threshold and the text case-insensitively, also inside a JSON message', () => {
    const query = linesQuery({ minLevel: 'ERROR', contains: 'said "no"' });
    const [, levelRegex = ''] = /filter @message like \/\(\?i\)(.*)\/\n/.exec(query) ?? [];
    const level = new RegExp(levelRegex.replace(/\\\//g, '/'), 'i');
    expect(level.test('{"level":"error","message":"x"}')).toBe(true);
    expect(level.test('ERROR x')).toBe(true);
    expect(level.test('2026-04-06T04:01:00.000Z\tabc\tFATAL\tx')).toBe(true);
    expect(level.test('{"level":"WARN","message":"error later"}')).toBe(false);
    const contains = new RegExp(/like \/\(\?i\)(.*)\/\n\| sort/.exec(query)?.[1] ?? '', 'i');
    expect(contains.test(JSON.stringify({ message: 'He SAID "no"' }))).toBe(true);
    expect(linesQuery({ minLevel: 'DEBUG' })).not.toContain('filter');
  });

  it('finds text holding a tab both in a raw Lambda line and inside a JSON message, where the tab is escaped', () => {
    const query = linesQuery({ minLevel: 'DEBUG', contains: 'req-1\tERROR\tbulk' });
    const contains = new RegExp(/like \/\(\?i\)(.*)\/\n\| sort/.exec(query)?.[1] ?? '', 'i');
    expect(contains.test('2026-04-06T04:01:00.000Z\treq-1\tERROR\tbulk index failed')).toBe(true);
    expect(contains.test(JSON.stringify({ level: 'ERROR', message: 'req-1\tERROR\tbulk index failed' }))).toBe(true);
    expect(contains.test('req-1 ERROR bulk index failed')).toBe(false);
  });

  it('reads the level and message of each log format', () => {
    expect(parseLogMessage('{"level":"warn","message":"slow","ms":900}')).toEqual({ level: 'warn', message: 'slow', fields: { ms: 900 } });
    expect(parseLogMessage('ERROR: disk full')).toEqual({ level: 'ERROR', message: 'disk full' });
    expect(parseLogMessage('START RequestId: 1 Version: $LATEST')).toEqual({ level: 'UNKNOWN', message: 'START RequestId: 1 Version: $LATEST' });
  });

  it('never runs more than its concurrency at once', async () => {
    const limiter = new QueryLimiter({ concurrency: 2, spacingMs: 0 });
    let running = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 6 }, () =>
        limiter.run(async () => {
          running++;
          most = Math.max(most, running);
          await new Promise((resolve) => setTimeout(resolve, 5));
          running--;
        }),
      ),
    );
    expect(most).toBe(2);
  });
});
