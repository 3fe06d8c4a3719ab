import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { judgeHealth } from '../../lib/analyst/health-verdict.ts';
import { collectSignals } from '../../lib/analyst/signals.ts';
import { meaningOf } from '../../lib/analyst/metric-semantics.ts';
import { at, boardFrom, series, sorted } from './board-builder.ts';

const START = '2026-05-01T10:00:00.000Z';

describe('rejected or discarded work is harm', () => {
  it('blocked, denied and filtered-out counts are bad when they rise, not demand', () => {
    expect(meaningOf('BlockedRequests')).toBe('bad-up');
    expect(meaningOf('NumberOfNotificationsFilteredOut')).toBe('bad-up');
    expect(meaningOf('AccessDeniedCount')).toBe('bad-up');
    expect(meaningOf('NumberOfMessagesPublished')).toBe('demand');
  });

  it('a firewall blocking legitimate uploads is an incident though nothing logs an error', () => {
    const diagnosis = diagnose(
      boardFrom({
        brief: 'CloudWatch alarm "uploads-blocked" changed to ALARM from OK at 2026-05-01T11:05:00Z in account 1, region r.',
        services: [{ name: 'uploads-acl', kind: 'other', dependsOn: ['uploads-api'] }, { name: 'uploads-api', kind: 'ecs' }],
        metrics: [
          { service: 'uploads-acl', name: 'BlockedRequests', points: series(START, 120, (minute) => (minute >= 60 ? 300 + (minute % 5) : 2 + (minute % 3))) },
          { service: 'uploads-acl', name: 'AllowedRequests', points: series(START, 120, (minute) => (minute >= 60 ? 700 : 1000) + (minute % 5)) },
        ],
        logs: Array.from({ length: 8 }, (_, index) => ({ service: 'uploads-api', timestamp: at(START, 62 + index * 5), level: 'INFO', message: `POST /v1/claims/${index}/documents 413 from 10.0.${index}.7 ua="ClaimsApp/4.2"` })),
      }),
    );
    expect(diagnosis.draft.incident).toBe(true);
    expect(diagnosis.draft.rootCause.service).toBe('uploads-acl');
  });
});

describe('work that stops is harm when its input keeps coming', () => {
  const services = [{ name: 'orders-topic', kind: 'sns' }, { name: 'mailer', kind: 'lambda', dependsOn: ['orders-topic'] }];
  const published = { service: 'orders-topic', name: 'NumberOfMessagesPublished', points: series(START, 120, (minute) => 600 + (minute % 9) * 5) };

  it('a consumer whose invocations stop while its topic still publishes is an incident', () => {
    const invocations = { service: 'mailer', name: 'Invocations', points: series(START, 60, (minute) => 250 + (minute % 6) * 4) };
    const diagnosis = diagnose(boardFrom({ services, metrics: [published, invocations] }));
    expect(diagnosis.draft.incident).toBe(true);
    expect(diagnosis.draft.rootCause.summary).toMatch(/Invocations at mailer stopped/);
  });

  it('a consumer that drops to zero readings counts the same as one that falls silent', () => {
    const invocations = { service: 'mailer', name: 'Invocations', points: series(START, 120, (minute) => (minute >= 70 ? 0 : 250 + (minute % 6) * 4)) };
    expect(diagnose(boardFrom({ services, metrics: [published, invocations] })).draft.incident).toBe(true);
  });

  it('as does one whose zero readings outlast the work before them', () => {
    const invocations = { service: 'mailer', name: 'Invocations', points: series(START, 120, (minute) => (minute >= 40 ? 0 : 250 + (minute % 6) * 4)) };
    const diagnosis = diagnose(boardFrom({ services, metrics: [published, invocations] }));
    expect(diagnosis.draft.incident).toBe(true);
    expect(diagnosis.draft.rootCause.summary).toMatch(/Invocations at mailer stopped at \S+T10:40:00/);
  });

  it('a throughput that stops when its source stops too (quiet hours, a finished job) is no incident', () => {
    const quietSource = { ...published, points: series(START, 120, (minute) => (minute >= 60 ? 0 : 600 + (minute % 9) * 5)) };
    const invocations = { service: 'mailer', name: 'Invocations', points: series(START, 120, (minute) => (minute >= 60 ? 0 : 250 + (minute % 6) * 4)) };
    expect(diagnose(boardFrom({ services, metrics: [quietSource, invocations] })).draft.incident).toBe(false);
  });

  describe('through a bus that publishes no throughput of its own', () => {
    const routed = [
      { name: 'results-gateway', kind: 'ecs', dependsOn: ['clinic-bus'] },
      { name: 'clinic-bus', kind: 'other' },
      { name: 'results-rule', kind: 'other', dependsOn: ['clinic-bus', 'notifier'] },
      { name: 'notifier', kind: 'lambda' },
    ];
    const matched = { service: 'results-rule', name: 'MatchedEvents', points: series(START, 60, (minute) => 20 + (minute % 5)) };
    const producerWrites = (name: string) => ({ service: 'results-gateway', name, points: series(START, 120, (minute) => 25 + (minute % 7)) });

    it('a rule that stops matching while the producer writing to its bus keeps succeeding is where the work stops', () => {
      const diagnosis = diagnose(boardFrom({ services: routed, metrics: [matched, producerWrites('PutEventsApproximateSuccessCount')] }));
      expect(diagnosis.draft.incident).toBe(true);
      expect(diagnosis.draft.rootCause.service).toBe('results-rule');
      expect(diagnosis.draft.rootCause.summary).toMatch(/MatchedEvents at results-rule stopped .* while PutEventsApproximateSuccessCount at results-gateway kept going/);
    });

    it('a producer whose writes are only failures shows no work still arriving', () => {
      expect(diagnose(boardFrom({ services: routed, metrics: [matched, producerWrites('PutEventsFailedCount')] })).draft.incident).toBe(false);
    });

    it('a bus with throughput of its own is read itself, not through its producers', () => {
      const busGoingOn = { service: 'clinic-bus', name: 'Invocations', points: series(START, 120, (minute) => 24 + (minute % 5)) };
      const summary = diagnose(boardFrom({ services: routed, metrics: [matched, busGoingOn, producerWrites('PutEventsApproximateSuccessCount')] })).draft.rootCause.summary;
      expect(summary).toMatch(/MatchedEvents at results-rule stopped .* while Invocations at clinic-bus kept going/);
    });
  });
});

describe('benign explanations set trouble aside', () => {
  const edge = [{ name: 'site-alb', kind: 'elb', dependsOn: ['site'] }, { name: 'site', kind: 'ecs' }];
  const fourXx = { service: 'site-alb', name: 'HTTPCode_Target_4XX_Count', points: series(START, 120, (minute) => (minute >= 80 ? 1800 + (minute % 7) * 20 : 40 + (minute % 5))) };
  const requests = { service: 'site-alb', name: 'RequestCount', points: series(START, 120, (minute) => (minute >= 80 ? 6000 : 4500) + (minute % 11) * 10) };
  const alarm = [{ name: 'site-4xx', service: 'site-alb', state: 'ALARM' as const, since: at(START, 85) }];
  const served = Array.from({ length: 6 }, (_, index) => ({ service: 'site', timestamp: at(START, 81 + index * 6), level: 'INFO', message: `GET /guides/page-${index} 200 40ms src=10.1.2.${index}` }));
  /** A scanner's requests for paths that do not exist, one every five minutes from minute 80, as `service` logged them. */
  const scannerProbes = ({ service, level, status }: { service: string; level: string; status: number }) =>
    ['/wp-login.php', '/.env', '/.git/config', '/phpmyadmin/', '/HNAP1/', '/owa/auth/logon.aspx'].map((path, index) => ({
      service,
      timestamp: at(START, 80 + index * 5),
      level,
      message: `GET ${path} ${status} 2ms src=185.220.101.${index} ua="Mozilla/5.0 zgrab/0.x"`,
    }));

  it('a 4xx rise made of scanners asking for paths that do not exist is explained, while real pages keep serving', () => {
    const diagnosis = diagnose(boardFrom({ services: edge, alarms: alarm, metrics: [fourXx, requests], logs: [...scannerProbes({ service: 'site', level: 'INFO', status: 404 }), ...served] }));
    expect(diagnosis.draft.incident).toBe(false);
    expect(diagnosis.draft.rootCause.summary).toMatch(/automated probing/);
  });

  it('the part of those client errors a narrower measure counts (the 403s among the 4xx) is the same probing, though few lines were read since it rose; probes logged as errors are no failures', () => {
    const forbidden = { service: 'site-alb', name: '403ErrorRate', points: series(START, 120, (minute) => (minute >= 96 ? 38 + (minute % 3) : 0.1 + (minute % 2) * 0.02)) };
    const board = boardFrom({ services: edge, alarms: alarm, metrics: [fourXx, requests, forbidden], logs: sorted([...scannerProbes({ service: 'site-alb', level: 'ERROR', status: 403 }), ...served]) });
    const signals = collectSignals(board);
    const narrower = signals.find((signal) => signal.text.startsWith('403ErrorRate'));
    expect(narrower).toBeDefined();
    expect(judgeHealth(board, signals, undefined, 'site-alb').benign.has(narrower!)).toBe(true);
    expect(diagnose(board).draft.incident).toBe(false);
  });

  it('a scanner known by its robot agent ("compatible; …; +https://…/bot") writing test files and fetching backups is probing too', () => {
    const paths = ['PUT /asv-write-test-1.txt 403', 'GET /backup.zip 404', 'GET /etc/passwd 404', 'GET /index.php.bak 404', 'PUT /asv-write-test-2.txt 403', 'GET /config.old 404'];
    const probes = paths.map((request, index) => ({
      service: 'site',
      timestamp: at(START, 80 + index * 5),
      level: 'INFO',
      message: `${request.replace(/ (\d+)$/, ' HTTP/1.1" $1')} 2ms src=198.51.100.${index} ua="Mozilla/5.0 (compatible; ExampleScan/4.1; +https://scan.example/bot)"`,
    }));
    expect(diagnose(boardFrom({ services: edge, alarms: alarm, metrics: [fourXx, requests], logs: [...probes, ...served] })).draft.incident).toBe(false);
  });

  // CloudFront's standard log: time, client address, time taken, status, bytes, method, scheme, host, path, edge, id, result, agent.
  const cdnLine = (minute: number, address: string, status: number, path: string) => ({
    service: 'site-cdn',
    timestamp: at(START, minute),
    level: 'INFO',
    message: `${Date.parse(at(START, minute)) / 1000}\t${address}\t0.090\t${status}\t480\tGET\thttps\twww.example.org\t${path}\tARN56-P1\tD96A5EF4==\t${status < 400 ? 'Hit' : 'Error'}\tMozilla/5.0 (X11; Linux x86_64) Chrome/99.0`,
  });
  const wordList = ['/.vscode/sftp.json', '/config.json', '/debug/default/view', '/console/', '/api/v1/pods', '/sftp-config.json', '/db.sql', '/server.key'];
  const cdn = [{ name: 'site-cdn', kind: 'cloudfront', dependsOn: ['site'] }, { name: 'site', kind: 'ecs' }];
  const cdnTotal = { service: 'site-cdn', name: 'TotalErrorRate', points: series(START, 120, (minute) => (minute >= 80 ? 29 + (minute % 3) : 1.4 + (minute % 2) * 0.1)) };
  const cdnAlarms = (serverErrors: 'OK' | 'ALARM') => [
    { name: 'site-cdn-4xx-rate', service: 'site-cdn', state: 'ALARM' as const, since: at(START, 85) },
    { name: 'site-cdn-5xx-rate', service: 'site-cdn', state: serverErrors, since: at(START, serverErrors === 'OK' ? 0 : 85) },
  ];
  const scanned = (addresses: readonly string[]) => [
    ...Array.from({ length: 24 }, (_, index) => cdnLine(80 + index, addresses[index % addresses.length]!, 404, wordList[index % wordList.length]!)),
    ...Array.from({ length: 8 }, (_, index) => cdnLine(81 + index * 4, `81.2.69.${index}`, 200, `/performances/page-${index}`)),
  ];

  it('a 4xx rise from a few addresses each told that many paths do not exist is a word list worked through, whatever the paths or agent; all errors told, with server errors quiet, are those', () => {
    for (const addresses of [['203.0.113.88', '198.51.100.23', '198.51.100.24'], ['<IP_6>', '<IP_7>', '<IP_8>']]) {
      const board = boardFrom({ services: cdn, alarms: cdnAlarms('OK'), metrics: [{ ...fourXx, service: 'site-cdn', name: '4xxErrorRate' }, cdnTotal], logs: scanned(addresses) });
      expect(diagnose(board).draft.incident).toBe(false);
    }
  });

  it('is no word list when the same refusals come from many addresses, nor are all errors client errors when server errors fired', () => {
    const many = Array.from({ length: 24 }, (_, index) => `10.9.8.${index}`);
    expect(diagnose(boardFrom({ services: cdn, alarms: cdnAlarms('OK'), metrics: [{ ...fourXx, service: 'site-cdn', name: '4xxErrorRate' }, cdnTotal], logs: scanned(many) })).draft.incident).toBe(true);
    const scanners = ['203.0.113.88', '198.51.100.23', '198.51.100.24'];
    expect(diagnose(boardFrom({ services: cdn, alarms: cdnAlarms('ALARM'), metrics: [{ ...fourXx, service: 'site-cdn', name: '4xxErrorRate' }, cdnTotal], logs: scanned(scanners) })).draft.incident).toBe(true);
  });

  it('the same 4xx rise refusing ordinary users is an incident', () => {
    const refused = Array.from({ length: 6 }, (_, index) => ({ service: 'site', timestamp: at(START, 80 + index * 5), level: 'INFO', message: `POST /v1/orders 429 2ms src=10.4.5.${index} ua="ShopApp/5.1"` }));
    const diagnosis = diagnose(boardFrom({ services: edge, alarms: alarm, metrics: [fourXx, requests], logs: [...refused, ...served] }));
    expect(diagnosis.draft.incident).toBe(true);
  });

  // AWS WAF's log of a request it blocked in front of the balancer, with the agent that sent it.
  const wafBlock = (minute: number, agent: string) => ({
    service: 'site-waf',
    timestamp: at(START, minute),
    level: 'INFO',
    message: JSON.stringify({ action: 'BLOCK', terminatingRuleId: 'rate-limit-per-ip', httpSourceName: 'ALB', httpSourceId: '111122223333-app/site-public/5d9e1a27c3f40b86', httpRequest: { clientIp: '45.146.164.21', uri: `/events/${minute}/listings`, headers: [{ name: 'user-agent', value: agent }] } }),
  });
  const blockedAtEdge = (agent: string) => {
    const withBalancer = (metric: typeof fourXx) => ({ ...metric, name: metric.name.replace('Target', 'ELB'), dimensions: { LoadBalancer: 'app/site-public/5d9e1a27c3f40b86' } });
    const allowed = { service: 'site-waf', name: 'AllowedRequests', points: series(START, 120, (minute) => 5900 + (minute % 9) * 12) };
    const blocked = { service: 'site-waf', name: 'BlockedRequests', points: series(START, 120, (minute) => (minute >= 80 ? 1700 : 1)) };
    const services = [...edge, { name: 'site-waf', kind: 'other' }];
    const alarms = [...alarm, { name: 'site-waf-blocked', service: 'site-waf', state: 'ALARM' as const, since: at(START, 84) }];
    return boardFrom({ services, alarms, metrics: [withBalancer(fourXx), withBalancer(requests), allowed, blocked], logs: sorted([...Array.from({ length: 8 }, (_, index) => wafBlock(80 + index * 4, agent)), ...served]) });
  };

  it("a firewall's own record that the requests it blocked in front of the balancer came from a headless scraper explains the balancer's refusals and its own count, while it lets the rest through", () => {
    const diagnosis = diagnose(blockedAtEdge('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/128.0.6613.84 Safari/537.36'));
    expect(diagnosis.draft.incident).toBe(false);
    expect(diagnosis.draft.rootCause.summary).toMatch(/automated probing/);
  });

  it('the same blocks refusing an ordinary browser are an incident', () => {
    expect(diagnose(blockedAtEdge('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15')).draft.incident).toBe(true);
  });

  const queueServices = [{ name: 'jobs', kind: 'sqs' }, { name: 'worker', kind: 'ecs', dependsOn: ['jobs'] }];
  const ageAlarm = [{ name: 'jobs-age', service: 'jobs', state: 'ALARM' as const, since: at(START, 90) }];
  const age = { service: 'jobs', name: 'ApproximateAgeOfOldestMessage', points: series(START, 120, (minute) => (minute >= 60 ? (minute - 60) * 60 : 2)) };

  it('a backlog that peaked and is draining fast enough is being worked off, not stuck', () => {
    const backlog = { service: 'jobs', name: 'ApproximateNumberOfMessagesVisible', points: series(START, 120, (minute) => (minute < 60 ? 1 : minute === 60 ? 90_000 : 90_000 - (minute - 60) * 1200)) };
    const diagnosis = diagnose(boardFrom({ services: queueServices, alarms: ageAlarm, metrics: [backlog, age] }));
    expect(diagnosis.draft.incident).toBe(false);
    expect(diagnosis.draft.rootCause.summary).toMatch(/draining, not stuck/);
  });

  it('a backlog read every five minutes, peaked and falling in line on four points since, is draining too', () => {
    const coarse = (points: [string, number][]) => points.filter((_, minute) => minute % 5 === 0);
    const backlog = { service: 'jobs', name: 'ApproximateNumberOfMessagesVisible', periodSeconds: 300, points: coarse(series(START, 120, (minute) => (minute < 100 ? (minute < 60 ? 1 : (minute - 59) * 1200) : 48_000 - (minute - 100) * 1500))) };
    const coarseAge = { ...age, periodSeconds: 300, points: coarse(age.points) };
    const diagnosis = diagnose(boardFrom({ services: queueServices, alarms: ageAlarm, metrics: [backlog, coarseAge] }));
    expect(diagnosis.draft.incident).toBe(false);
    expect(diagnosis.draft.rootCause.summary).toMatch(/draining, not stuck/);
  });

  it('a backlog that keeps growing is an incident', () => {
    const backlog = { service: 'jobs', name: 'ApproximateNumberOfMessagesVisible', points: series(START, 120, (minute) => (minute < 60 ? 1 : (minute - 59) * 1200)) };
    expect(diagnose(boardFrom({ services: queueServices, alarms: ageAlarm, metrics: [backlog, age] })).draft.incident).toBe(true);
  });

  it('trouble at a resource taken out of service is explained', () => {
    const retired = diagnose(
      boardFrom({
        services: [{ name: 'source', kind: 'sns' }, { name: 'old-consumer', kind: 'lambda', dependsOn: ['source'] }],
        metrics: [
          { service: 'source', name: 'NumberOfMessagesPublished', points: series(START, 120, (minute) => 600 + (minute % 9) * 5) },
          { service: 'old-consumer', name: 'Invocations', points: series(START, 60, (minute) => 250 + (minute % 6) * 4) },
        ],
        changes: [{ service: 'old-consumer', timestamp: at(START, 58), kind: 'other', summary: 'old-consumer decommissioned, subscription moved to new-consumer' }],
      }),
    );
    expect(retired.draft.incident).toBe(false);
    expect(retired.draft.rootCause.summary).toMatch(/Invocations at old-consumer stopped .* is explained: old-consumer was taken out of service/);
  });

  it('a CPU rise at the same time of day as yesterday is a recurring job; the same rise without a yesterday is an incident', () => {
    const db = [{ name: 'reports-db', kind: 'rds' }];
    const DAY = 24 * 60;
    const nightly = (minute: number) => (minute % DAY >= 120 && minute % DAY < 150 ? 92 + (minute % 3) : 20 + (minute % 4));
    const alarm = [{ name: 'reports-db-cpu', service: 'reports-db', state: 'ALARM' as const, since: at(START, DAY + 125) }];
    const recurring = diagnose(boardFrom({ services: db, alarms: alarm, metrics: [{ service: 'reports-db', name: 'CPUUtilization', points: series(START, DAY + 140, nightly) }] }));
    expect(recurring.draft.incident).toBe(false);
    expect(recurring.draft.rootCause.summary).toMatch(/recurs on a schedule: CPUUtilization at reports-db rose the same way at about the same time a day earlier/);
    const once = (minute: number) => (minute >= DAY + 120 ? 92 + (minute % 3) : 20 + (minute % 4));
    const fresh = diagnose(boardFrom({ services: db, alarms: alarm, metrics: [{ service: 'reports-db', name: 'CPUUtilization', points: series(START, DAY + 140, once) }] }));
    expect(fresh.draft.incident).toBe(true);
  });
  it('throttles a metric publishes only while a nightly job runs, recurring each night, explain its alarm; the same throttles without an earlier night do not', () => {
    const table = [{ name: 'ledger', kind: 'dynamodb' }];
    const DAY = 24 * 60;
    const nightWindows = (days: number) => Array.from({ length: days }, (_, day) => [0, 5, 10].map((minute) => [at(START, day * DAY + minute), 900 + minute] as [string, number])).flat();
    const alarm = [{ name: 'ledger-throttles', service: 'ledger', state: 'ALARM' as const, since: at(START, 2 * DAY + 11) }];
    const recurring = diagnose(boardFrom({ services: table, alarms: alarm, metrics: [{ service: 'ledger', name: 'WriteThrottleEvents', points: nightWindows(3) }] }));
    expect(recurring.draft.incident).toBe(false);
    expect(recurring.draft.rootCause.summary).toMatch(/recurs on a schedule: WriteThrottleEvents at ledger/);
    const tonightOnly = nightWindows(3).slice(6);
    expect(diagnose(boardFrom({ services: table, alarms: alarm, metrics: [{ service: 'ledger', name: 'WriteThrottleEvents', points: tonightOnly }] })).draft.incident).toBe(true);
  });

  it('a stream reader whose iterator age peaked and falls steadily is catching up, and announced work at another user of the stream explains its readers\' load', () => {
    const streamServices = [
      { name: 'events', kind: 'other' },
      { name: 'replayer', kind: 'ecs', dependsOn: ['events'] },
      { name: 'reader', kind: 'lambda', dependsOn: ['events'] },
    ];
    const iteratorAge = (minute: number) => (minute < 30 ? 800 : minute < 80 ? (minute - 29) * 60_000 : 3_000_000 - (minute - 80) * 70_000);
    const evidence = {
      services: streamServices,
      alarms: [{ name: 'events-iterator-age', service: 'events', state: 'ALARM' as const, since: at(START, 50) }],
      metrics: [
        { service: 'events', name: 'GetRecords.IteratorAgeMilliseconds', points: series(START, 120, iteratorAge) },
        { service: 'reader', name: 'ConcurrentExecutions', points: series(START, 120, (minute) => (minute < 30 ? 6 : 16)) },
      ],
    };
    const draining = diagnose(boardFrom({ ...evidence, metrics: [evidence.metrics[0]!] }));
    expect(draining.draft.incident).toBe(false);
    expect(draining.draft.rootCause.summary).toMatch(/draining, not stuck/);
    // The reader working harder from when the backlog formed, failing nothing, is the backlog being worked off; a replay
    // announced at the stream's other user explains it as well.
    expect(diagnose(boardFrom(evidence)).draft.incident).toBe(false);
    expect(diagnose(boardFrom(evidence)).draft.rootCause.summary).toMatch(/ConcurrentExecutions at reader .* rose with events's backlog being worked off/);
    const announced = { service: 'replayer', timestamp: at(START, 28), kind: 'other', summary: 'RunTask replayer: replay of yesterday, announced: iterator age alerts expected' };
    expect(diagnose(boardFrom({ ...evidence, changes: [announced] })).draft.incident).toBe(false);
    const growing = { ...evidence, metrics: [{ service: 'events', name: 'GetRecords.IteratorAgeMilliseconds', points: series(START, 120, (minute) => (minute < 30 ? 800 : (minute - 29) * 60_000)) }] };
    expect(diagnose(boardFrom(growing)).draft.incident).toBe(true);
  });
  it('an error count that averages under one a period is stray errors; one error every period is a failure', () => {
    const web = [{ name: 'web', kind: 'ecs' }];
    const count = (valueAt: (minute: number) => number) => diagnose(boardFrom({ services: web, metrics: [{ service: 'web', name: 'HTTPCode_Target_5XX_Count', points: series(START, 120, valueAt) }] }));
    expect(count((minute) => (minute >= 116 && minute % 2 === 0 ? 1 : 0)).draft.incident).toBe(false);
    expect(count((minute) => (minute >= 100 ? 4 : 0)).draft.incident).toBe(true);
  });
  it('a count at a level it already reached in several earlier periods is its usual scatter; a level it never reached is a shift', () => {
    const worker = [{ name: 'worker', kind: 'lambda' }];
    // One error in a few scattered five-minute periods all along, and in the newest two.
    const scattered = (minute: number) => ([15, 30, 60, 115, 120].includes(minute) ? 1 : 0);
    const count = (valueAt: (minute: number) => number) =>
      diagnose(boardFrom({ services: worker, metrics: [{ service: 'worker', name: 'Errors', stat: 'Sum', periodSeconds: 300, points: series(START, 125, valueAt).filter((_, minute) => minute % 5 === 0) }] }));
    expect(count(scattered).draft.incident).toBe(false);
    expect(count((minute) => (minute >= 115 ? 3 : scattered(minute))).draft.incident).toBe(true);
  });
  it('a failure count is read like an error count: a stray one or its usual scatter is no shift, a new level is', () => {
    const worker = [{ name: 'worker', kind: 'ecs' }];
    const scattered = (minute: number) => ([40, 120].includes(minute) ? 1 : 0);
    const count = (valueAt: (minute: number) => number) =>
      diagnose(boardFrom({ services: worker, metrics: [{ service: 'worker', name: 'ProcessingFailures', stat: 'Sum', periodSeconds: 300, points: series(START, 125, valueAt).filter((_, minute) => minute % 5 === 0) }] }));
    expect(count(scattered).draft.incident).toBe(false);
    expect(count((minute) => (minute >= 110 ? 6 : scattered(minute))).draft.incident).toBe(true);
  });
});

describe('work that moved is not work that stopped', () => {
  it('a throughput that stops on one instance while the same measure on another instance takes it up has moved (a failover); alone, it stopped', () => {
    const throughputOf = (instance: string, valueAt: (minute: number) => number) => ({ service: 'db', name: 'CommitThroughput', dimensions: { DBInstanceIdentifier: instance }, points: series(START, 120, valueAt) });
    const oldWriter = throughputOf('db-1', (minute) => (minute < 60 ? 120 + (minute % 7) : 0));
    const newWriter = throughputOf('db-2', (minute) => (minute < 60 ? 0.05 : 118 + (minute % 5)));
    const services = [{ name: 'api', kind: 'ecs', dependsOn: ['db'] }, { name: 'db', kind: 'rds' }];
    const apiRequests = { service: 'api', name: 'RequestCount', points: series(START, 120, (minute) => 900 + (minute % 9)) };
    const stopped = (metrics: ReturnType<typeof throughputOf>[]) =>
      collectSignals(boardFrom({ services, metrics: [...metrics, apiRequests] })).filter((signal) => signal.service === 'db' && signal.text === 'CommitThroughput stopped');
    expect(stopped([oldWriter, newWriter])).toEqual([]);
    expect(stopped([oldWriter])).toHaveLength(1);
  });
});

