import { describe, expect, it } from 'vitest';
import { categoryOfChange, causesIn } from '../../lib/analyst/cause-signals.ts';
import { failureKindsIn, failureKindsOfChange } from '../../lib/analyst/change-effects.ts';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { suspectChangeFor } from '../../lib/analyst/explaining-change.ts';
import { loweredBy } from '../../lib/analyst/lowered-setting.ts';
import type { Signal } from '../../lib/analyst/signals.ts';
import { at, boardFrom, series, step, type SyntheticEvidence } from './board-builder.ts';

const START = '2026-05-01T10:00:00.000Z';
const labels = (text: string) => causesIn(text).map((hit) => hit.label);
const actions = (steps: readonly { action: string; target: string }[]) => steps.map((step) => `${step.action} ${step.target}`);

describe('what an error says about its cause', () => {
  it('a value the code cannot handle is bad data; a word that merely contains "nan" is not', () => {
    expect(labels('RangeError: Invalid time value (start="2026-02-30T09:00:00")')).toContain('bad data');
    expect(labels('scheduled maintenance window for tenant 42 finished')).not.toContain('bad data');
    expect(labels('POST /payments failed: HTTP 503 Service Unavailable pspReference=null')).not.toContain('bad data');
  });

  it('a record that will not decode is bad data, in the words decoders use', () => {
    expect(labels('JSONDecodeError: Unterminated string starting at: line 1 column 115 (char 114)')).toContain('bad data');
    expect(labels('cannot decode record seq=4965201381728314 from shard-3')).toContain('bad data');
    expect(labels('decoded 500 records from shard-3 in 40ms')).not.toContain('bad data');
  });

  it('a task with no host that fits it is a placement failure; a task killed for its own memory is not', () => {
    expect(labels('(service route-planner) was unable to place a task because no container instance met all of its requirements. The closest matching (container-instance 12a) has insufficient memory available.')).toContain('placement');
    expect(labels('0/6 nodes are available: 6 Insufficient memory.')).toContain('placement');
    expect(labels('OutOfMemoryError: Container killed due to memory usage')).not.toContain('placement');
  });

  it("a database's refusal for want of a privilege is access denied", () => {
    expect(labels('InsufficientPrivilege: must be a member of rds_password to alter passwords')).toContain('access denied');
  });

  it('a repeat the code recognised and set aside is idempotency at work, not bad data; a repeat that went through is', () => {
    for (const handled of ['duplicate scan event ignored return=R-7576571 carrier=swiftship', 'skipping duplicate message 8f2c', 'event 91 already processed; skipped', 'deduplicated 3 records'])
      expect(labels(handled)).not.toContain('bad data');
    expect(labels('duplicate key value violates unique constraint "orders_pkey"')).toContain('bad data');
    expect(labels('order 5521 was charged twice')).toContain('bad data');
  });

  it('a task that cannot pull the image its definition names is missing that image (a setting); a pull refused or timed out is not', () => {
    expect(causesIn('Task stopped: stoppedReason="CannotPullContainerError: failed to resolve ref 1234.dkr.ecr.eu-west-1.amazonaws.com/api:build-22: not found"')).toContainEqual(
      expect.objectContaining({ label: 'missing image', category: 'config' }),
    );
    expect(labels('Failed to pull image "registry/api:1.4": manifest unknown')).toContain('missing image');
    expect(labels('CannotPullContainerError: pull access denied for api, repository does not exist or may require authorization')).not.toContain('missing image');
    expect(labels('CannotPullContainerError: dial tcp 52.94.1.1:443: i/o timeout')).not.toContain('missing image');
  });

  /** Tasks of the planner that cannot pull their image from minute 90; `changes` happened before. */
  const imageNotPulled = (changes: SyntheticEvidence['changes']) => {
    const stopped = (minute: number) => ({
      service: 'planner',
      timestamp: at(START, minute),
      level: 'ERROR',
      message: `Task stopped: stopCode=TaskFailedToStart stoppedReason="CannotPullContainerError: failed to resolve ref 1234.dkr.ecr.eu-west-1.amazonaws.com/planner:build-${minute}: not found"`,
    });
    const { draft } = diagnose(
      boardFrom({
        brief: 'CloudWatch alarm "planner-running-tasks-low" is in ALARM',
        services: [{ name: 'web', kind: 'ecs', dependsOn: ['planner'] }, { name: 'planner', kind: 'ecs' }],
        alarms: [{ name: 'planner-running-tasks-low', service: 'planner', state: 'ALARM', since: at(START, 95) }],
        changes,
        logs: [
          ...Array.from({ length: 15 }, (_, index) => ({ service: 'planner', timestamp: at(START, index * 6), level: 'INFO', message: `GET /plans/${index} 200` })),
          ...Array.from({ length: 8 }, (_, index) => stopped(90 + index * 3)),
        ].sort((a, b) => a.timestamp.localeCompare(b.timestamp)),
      }),
    );
    return draft;
  };

  it('tasks that cannot start for an image a lifecycle policy expired days before are a configuration cause, named in plain words', () => {
    const draft = imageNotPulled([{ service: 'planner', timestamp: at(START, -2 * 24 * 60), kind: 'config', summary: 'ECR repository planner: lifecycle policy replaced (keep the last 15 images)' }]);
    expect(draft.rootCause).toMatchObject({ service: 'planner', category: 'config' });
    expect(draft.rootCause.summary).toMatch(/image .*no longer in the registry \(expired by a lifecycle policy\)/);
  });

  it('tasks of a release that cannot pull the image it names fail from that release, its image not in the registry', () => {
    const draft = imageNotPulled([{ service: 'planner', timestamp: at(START, 88), kind: 'deploy', summary: 'planner build-90 rolling update', details: { image: '1234.dkr.ecr.eu-west-1.amazonaws.com/planner:build-90' } }]);
    expect(draft.rootCause.service).toBe('planner');
    expect(draft.rootCause.summary).toMatch(/image .* is not in the registry/);
    expect(draft.remediation[0]).toMatchObject({ action: 'rollback', target: 'planner' });
  });

  it('a TLS certificate that fails is a certificate cause in the words of each stack; a certificate in the business sense is not', () => {
    const phrasings = [
      'x509: certificate signed by unknown authority',
      'SSL_do_handshake() failed (SSL: error:0A000415:SSL routines::sslv3 alert certificate expired)',
      'Error [ERR_TLS_CERT_ALTNAME_INVALID]: Hostname/IP does not match certificate\'s altnames',
      'unable to get local issuer certificate',
      'All renewals failed. The following certificates could not be renewed',
      'tls: pinned public key check failed for api.example.com',
    ];
    for (const text of phrasings) expect(labels(text), text).toContain('certificate');
    expect(labels('medical certificate lookup for C25189 fell back to cached record (registry slow)')).not.toContain('certificate');
    expect(labels('gift certificate GC-2231 redeemed for order 7781')).not.toContain('certificate');
  });

  it('a cause the logger only guesses at, as a question, is not stated; the same words stated are', () => {
    expect(labels('[ERROR] Worker (pid:20421) was sent SIGKILL! Perhaps out of memory?')).not.toContain('memory');
    expect(labels('task stopped: maybe a connection limit reached?')).not.toContain('connections');
    expect(labels('Out of memory: Killed process 20421 (gunicorn)')).toContain('memory');
    expect(labels('Worker was sent SIGKILL: out of memory. Is the limit too low?')).toContain('memory');
  });

  it('a limit the resource was configured with names the limit, not a wrong setting; a configuration error does', () => {
    expect(labels('ProvisionedThroughputExceededException: The level of configured provisioned throughput for the table was exceeded.')).not.toContain('configuration');
    expect(labels('ConfigurationError: unknown key cache.ttl in runtime config')).toContain('configuration');
  });

  it('a quota used up refuses what comes after it as a limit does: throttling', () => {
    expect(labels('API Key ***k1z exceeded quota for API Stage prod: Key quota exhausted for Usage Plan ID u7x2kq. Q Limit: 40000 Period: DAY')).toContain('throttling');
    expect(labels('ServiceQuotaExceededException: you have exceeded your quota of 5 elastic IPs')).toContain('throttling');
    expect(labels('quota review meeting moved to Thursday')).not.toContain('throttling');
  });

  it('a null dereference is a code defect, which a release brings, not bad data', () => {
    expect(causesIn('java.lang.NullPointerException: Cannot invoke "Tier.code()"')).toEqual([expect.objectContaining({ label: 'code defect', category: 'deploy' })]);
  });

  it("Node's fetch failing to get an answer is no code defect: its cause says what failed", () => {
    const failedFetch = 'voltpay authorise failed: TypeError: fetch failed (cause: ConnectTimeoutError: Connect Timeout Error (attempted address: api.voltpay.io:443, timeout: 4500ms))';
    expect(labels(failedFetch)).not.toContain('code defect');
    expect(labels("TypeError: Cannot read properties of undefined (reading 'amount')")).toContain('code defect');
    expect(labels('TypeError: fetchFailed is not a function')).toContain('code defect');
  });

  it('a change that only tags resources breaks nothing; a route deleted in the same apply can', () => {
    const change = (summary: string, eventName: string) => ({ service: 'vpc', at: Date.parse(START), timestamp: START, kind: 'network', summary, ref: 'E3', details: { eventName } });
    expect(categoryOfChange(change('CloudTrail CreateTags on rtb-0e5a1c7d (module_version=5.8.1)', 'CreateTags'))).toBeUndefined();
    expect(categoryOfChange({ ...change('TagResource on orders-table by terraform', 'x'), details: {} })).toBeUndefined();
    expect(categoryOfChange(change('CloudTrail DeleteRoute rtb-0e5a1c7d destination 0.0.0.0/0', 'DeleteRoute'))).toBe('network');
  });

  it("turning on a table's Contributor Insights only watches which keys are used: it throttles nothing, whatever its mode is called", () => {
    const insights = { service: 'table', at: Date.parse(START), timestamp: START, kind: 'config', ref: 'E3', summary: 'Enabled CloudWatch Contributor Insights on table progress (mode ACCESSED_AND_THROTTLED_KEYS)', details: { eventName: 'UpdateContributorInsights' } };
    expect(categoryOfChange(insights)).toBeUndefined();
    expect(failureKindsOfChange(insights).size).toBe(0);
    expect(failureKindsOfChange({ ...insights, summary: 'UpdateTable progress: BillingMode PAY_PER_REQUEST -> PROVISIONED, WriteCapacityUnits 100', details: { eventName: 'UpdateTable' } }).size).toBeGreaterThan(0);
  });

  it('a connection that never got through names the network, in the words of each stack', () => {
    const phrasings = [
      'org.postgresql.util.PSQLException: The connection attempt failed.',
      'Error: connect ETIMEDOUT 10.0.3.17:5432',
      'Connection to payments-db.cluster-x.eu-west-1.rds.amazonaws.com:5432 timed out',
      'dial tcp 10.0.3.17:443: i/o timeout',
      'java.net.NoRouteToHostException: No route to host (Host unreachable)',
    ];
    for (const text of phrasings) expect(causesIn(text), text).toContainEqual(expect.objectContaining({ label: 'network', category: 'network' }));
    // A host that answered and refused got through: that is no network fault by itself.
    expect(labels('Connection to payments-db:5432 refused. Check that the hostname and port are correct')).not.toContain('network');
    // What a network change can break is read in the same words.
    const timedOut: Signal = { service: 'orders', kind: 'errors', at: Date.parse(START), strength: 1, ongoing: true, substantial: true, ref: 'E4', description: '', text: phrasings[2]! };
    expect(failureKindsIn([timedOut])).toContain('network');
  });

  it('a rule whose matched events stopped passes nothing on: undelivered work, which a change to its event pattern can cause', () => {
    const stopped = (text: string): Signal => ({ service: 'bus', kind: 'metric', at: Date.parse(START), strength: 0.8, ongoing: true, substantial: true, ref: 'E5', description: '', text });
    expect(failureKindsIn([stopped('MatchedEvents stopped')])).toContain('undelivered');
    expect(failureKindsIn([stopped('PutEventsApproximateSuccessCount stopped')])).not.toContain('undelivered');
  });

  it('a change that lowers a number is found, one that raises it is not', () => {
    expect(loweredBy('throttlingRateLimit 1000 -> 100, throttlingBurstLimit 2000 -> 200')).toEqual({ from: '1000', to: '100' });
    expect(loweredBy('desired count 4 -> 6')).toBeUndefined();
  });
});

/** Quiet work from the start of the evidence, then the same error over and over. */
const failing = (service: string, message: string, from = 62) => [
  ...Array.from({ length: 6 }, (_, index) => ({ service, timestamp: at(START, index * 10), level: 'INFO', message: `handled request ${index}` })),
  ...Array.from({ length: 8 }, (_, index) => ({ service, timestamp: at(START, from + index * 6), level: 'ERROR', message })),
];

describe('the summary names the mechanism in plain words', () => {
  it('a throttle right after a change that lowered the limit is a lowered limit', () => {
    const diagnosis = diagnose(
      boardFrom({
        services: [{ name: 'edge-api', kind: 'apigateway' }],
        changes: [{ service: 'edge-api', timestamp: at(START, 58), kind: 'config', summary: 'UpdateStage prod: rate limit 1000 -> 100' }],
        logs: failing('edge-api', '{"status":429,"errorMessage":"Too Many Requests"}'),
      }),
    );
    expect(diagnosis.draft.rootCause.category).toBe('config');
    expect(diagnosis.draft.rootCause.summary).toMatch(/A lowered limit: edge-api's limit went from 1000 to 100/);
  });

  it("an SDK's throttling exception in a service's own log is its calls refused for their rate, whatever concurrency it runs at; a 429 it answers is its own limit", () => {
    const summaryOf = (message: string) =>
      diagnose(
        boardFrom({
          services: [{ name: 'tokenizer', kind: 'lambda' }],
          metrics: [{ service: 'tokenizer', name: 'ConcurrentExecutions', points: series(START, 120, step(60, 20, 150)) }],
          logs: failing('tokenizer', message),
        }),
      ).draft.rootCause.summary;
    expect(summaryOf('token unwrap failed: ThrottlingException: You have exceeded the rate at which you may call KMS.')).toMatch(/tokenizer's calls are throttled: its call volume exceeds the request rate/);
    expect(summaryOf('{"status":429,"errorMessage":"Too Many Requests"}')).not.toMatch(/calls are throttled/);
  });

  it('a function attached to a VPC whose outbound calls then time out lacks a NAT route; the status Lambda records as the update settles is not the change', () => {
    const attached = (extra: { service: string; timestamp: string; kind: string; summary: string; actor?: string }[] = []) =>
      diagnose(
        boardFrom({
          services: [{ name: 'geocoder-fn', kind: 'lambda', dependsOn: ['maps-api'] }, { name: 'maps-api', kind: 'external' }],
          changes: [{ service: 'geocoder-fn', timestamp: at(START, 58), kind: 'network', summary: 'UpdateFunctionConfiguration on geocoder-fn: VpcConfig set (2 subnets, 1 security group)', actor: 'terraform-deployer' }, ...extra],
          logs: failing('geocoder-fn', 'geocode lookup failed: ConnectTimeoutError: Connect Timeout Error (attempted address: maps.example.net:443, timeout: 10000ms)'),
        }),
      );
    expect(attached().draft.rootCause.summary).toMatch(/geocoder-fn was attached to a VPC: .* only through a NAT gateway/);
    const settled = { service: 'geocoder-fn', timestamp: at(START, 60), kind: 'config', summary: 'geocoder-fn: LastUpdateStatus InProgress -> Successful; version 28 published' };
    const suspect = (actor: string) =>
      suspectChangeFor(
        [{ service: 'geocoder-fn', ref: 'E1', at: Date.parse(at(START, 58)), timestamp: at(START, 58), kind: 'network', summary: 'UpdateFunctionConfiguration on geocoder-fn: VpcConfig set', actor: 'terraform-deployer' }, { ...settled, ref: 'E2', at: Date.parse(settled.timestamp), actor }],
        new Set(['geocoder-fn']),
        Date.parse(at(START, 62)),
      )?.summary;
    expect(suspect('lambda.amazonaws.com')).toContain('VpcConfig set');
    expect(suspect('release-pipeline')).toContain('LastUpdateStatus');
  });

  it('a refused password after a rotation is a rotated secret; without one the summary does not claim it', () => {
    const rotated = diagnose(
      boardFrom({
        services: [{ name: 'billing', kind: 'ecs' }],
        logs: failing('billing', 'FATAL: password authentication failed for user "billing" after secret rotation'),
      }),
    );
    expect(rotated.draft.rootCause.summary).toMatch(/secret that was rotated/);
    expect(rotated.principles).toContain('mechanism-credentials');
    const plain = diagnose(boardFrom({ services: [{ name: 'billing', kind: 'ecs' }], logs: failing('billing', 'FATAL: password authentication failed for user "billing"') }));
    expect(plain.draft.rootCause.summary).not.toMatch(/rotat/);
  });

  it.each([
    ['threads', 'accept failed: EMFILE: too many open files', /runs out of threads or file descriptors/, 'mechanism-threads'],
    ['replication lag', 'ReplicaLag 340 seconds behind source', /replica cannot keep up/, 'mechanism-replication-lag'],
    ['table scan', 'slow query: full table scan on orders, rows examined 4200000', /scans far more rows than it returns/, 'mechanism-table-scan'],
    ['disabled key', 'KMSInvalidStateException: arn:aws:kms:eu-west-1:1:key/abc is disabled', /KMS key that worker needs is disabled/, 'mechanism-disabled-key'],
    ['configuration', 'misconfigured: missing environment variable QUEUE_URL', /A configuration of worker is wrong/, 'mechanism-configuration'],
  ])('errors naming %s are worded as that mechanism', (_, message, words, principle) => {
    const diagnosis = diagnose(boardFrom({ services: [{ name: 'worker', kind: 'ecs' }], logs: failing('worker', message) }));
    expect(diagnosis.draft.rootCause.summary).toMatch(words);
    expect(diagnosis.principles).toContain(principle);
  });

  it('a key rotated by another user of a shared secret just before the refusals is named a rotated secret', () => {
    const evidence = {
      services: [{ name: 'eta', kind: 'ecs', dependsOn: ['maps-key'] }, { name: 'maps-key', kind: 'other' }, { name: 'key-rotator', kind: 'lambda', dependsOn: ['maps-key'] }],
      logs: failing('eta', 'maps POST /v2/route -> 401 Unauthorized invalid_api_key'),
    };
    const rotation = { service: 'key-rotator', timestamp: at(START, 55), kind: 'other', summary: 'RotateSecret prod/maps/api-key' };
    expect(diagnose(boardFrom({ ...evidence, changes: [rotation] })).draft.rootCause.summary).toMatch(/A rotated secret: key-rotator moved to a new secret version/);
    expect(diagnose(boardFrom(evidence)).draft.rootCause.summary).not.toMatch(/rotated secret/);
  });

  it('a rotation one user of the secret survives while another is still refused is a stale copy at the refused one', () => {
    const diagnosis = diagnose(
      boardFrom({
        services: [
          { name: 'balance-fn', kind: 'lambda', dependsOn: ['db-secret'] },
          { name: 'accrual', kind: 'ecs', dependsOn: ['db-secret'] },
          { name: 'db-secret', kind: 'other' },
        ],
        changes: [{ service: 'db-secret', timestamp: at(START, 60), kind: 'config', summary: 'RotateSecret prod/db/app (scheduled rotation)' }],
        logs: [
          ...failing('balance-fn', 'SequelizeConnectionError: password authentication failed for user "app"'),
          { service: 'accrual', timestamp: at(START, 61), level: 'WARN', message: 'auth failed; re-reading secret prod/db/app and reconnecting' },
          { service: 'accrual', timestamp: at(START, 70), level: 'INFO', message: 'accrued 120 events' },
        ],
      }),
    );
    expect(diagnosis.draft.rootCause.summary).toMatch(/accrual picked up the new value and kept working, but balance-fn still presents the credentials read before the rotation \(a stale copy/);
  });

  it('the same record failing on every retry from a FIFO queue is a poison message blocking its group', () => {
    const diagnosis = diagnose(
      boardFrom({
        services: [{ name: 'events.fifo', kind: 'sqs' }, { name: 'sync', kind: 'lambda', dependsOn: ['events.fifo'] }],
        logs: failing('sync', 'failed to map appointment 88213: RangeError: Invalid time value'),
      }),
    );
    expect(diagnosis.draft.rootCause.category).toBe('data');
    expect(diagnosis.draft.rootCause.summary).toMatch(/poison message/);
    expect(diagnosis.draft.rootCause.summary).toMatch(/FIFO queue .* message group \(head-of-line blocking\)/);
  });

  it('the same record failing on every retry from a stream shard is a poison message blocking its shard', () => {
    const diagnosis = diagnose(
      boardFrom({
        services: [{ name: 'readings', kind: 'other' }, { name: 'detector', kind: 'lambda', dependsOn: ['readings'] }],
        logs: failing('detector', 'failed to decode record shard=shardId-000000000002 seq=4965: invalid json'),
      }),
    );
    expect(diagnosis.draft.rootCause.category).toBe('data');
    expect(diagnosis.draft.rootCause.summary).toMatch(/poison message\), and because its stream is read in order it holds back every later record of its shard/);
  });

  it('a third party whose calls time out is named as a provider, not as a service of ours that fails', () => {
    const diagnosis = diagnose(
      boardFrom({
        services: [{ name: 'checkout', kind: 'ecs', dependsOn: ['psp'] }, { name: 'psp', kind: 'external' }],
        logs: failing('checkout', 'POST https://api.psp.example/v1/charges to psp failed: Read timed out'),
      }),
    );
    expect(diagnosis.draft.rootCause.service).toBe('psp');
    expect(diagnosis.draft.rootCause.summary).toMatch(/psp is a third-party provider: calls from checkout to it time out/);
  });

  it('a scale-in just before the service saturates is named as a capacity cut', () => {
    const diagnosis = diagnose(
      boardFrom({
        services: [{ name: 'scores-api', kind: 'ecs' }],
        changes: [{ service: 'scores-api', timestamp: at(START, 59), kind: 'scaling', summary: 'scheduled action scale-in: desired count 40 -> 4' }],
        metrics: [{ service: 'scores-api', name: 'CPUUtilization', points: series(START, 120, (minute) => (minute >= 60 ? 99 : 35 + (minute % 4))) }],
        logs: failing('scores-api', 'GET /v1/live timed out after 10000ms waiting for worker'),
      }),
    );
    expect(diagnosis.draft.rootCause.summary).toMatch(/Capacity was cut: a scaling change lowered scores-api's task count from 40 to 4/);
    expect(diagnosis.draft.rootCause.category).toBe('config');
    expect(actions(diagnosis.draft.remediation)).toEqual(['scale scores-api', 'revert-config scores-api']);
  });

  it('a function\'s reserved concurrency cut to zero is named so: every invocation is throttled', () => {
    const diagnosis = diagnose(
      boardFrom({
        services: [{ name: 'summaries', kind: 'lambda' }],
        changes: [{ service: 'summaries', timestamp: at(START, 59), kind: 'config', summary: 'PutFunctionConcurrency summaries ReservedConcurrentExecutions 40 -> 0' }],
        metrics: [{ service: 'summaries', name: 'Throttles', points: series(START, 120, (minute) => (minute >= 60 ? 150 : 0)) }],
      }),
    );
    expect(diagnosis.draft.rootCause.summary).toMatch(/lowered summaries's reserved concurrency from 40 to 0 .*: with none left, every invocation is throttled/);
  });

  it('a maximum lowered hours before is the cut once capacity scales up to exactly that ceiling; a scale-up short of it says nothing of the cut', () => {
    const ceiling = (reached: number) =>
      diagnose(
        boardFrom({
          services: [{ name: 'orders', kind: 'dynamodb' }, { name: 'checkout', kind: 'ecs', dependsOn: ['orders'] }],
          changes: [
            { service: 'orders', timestamp: at(START, -180), kind: 'config', summary: 'terraform apply: aws_appautoscaling_target.orders_write max_capacity 3000 -> 300' },
            { service: 'orders', timestamp: at(START, 40), kind: 'scaling', summary: `Application Auto Scaling: table/orders WriteCapacityUnits 250 -> ${reached}` },
          ],
          metrics: [{ service: 'orders', name: 'WriteThrottleEvents', points: series(START, 120, (minute) => (minute >= 60 ? 900 + (minute % 7) : 0)) }],
          logs: failing('checkout', 'PutItem orders failed: ProvisionedThroughputExceededException'),
        }),
      ).draft;
    expect(ceiling(300).rootCause.summary).toMatch(/Capacity was cut: a config change lowered orders's maximum capacity from 3000 to 300/);
    expect(ceiling(300).rootCause.category).toBe('config');
    expect(ceiling(280).rootCause.summary).not.toMatch(/Capacity was cut/);
  });

  it('what fills a volume is the measure that grows about as fast as its free space falls, however small beside its own size', () => {
    const GB = 1024 ** 3;
    const summary = (walRisePerMinute: number) =>
      diagnose(
        boardFrom({
          services: [{ name: 'claims-db', kind: 'rds' }, { name: 'claims-api', kind: 'ecs', dependsOn: ['claims-db'] }],
          metrics: [
            { service: 'claims-db', name: 'FreeStorageSpace', points: series(START, 120, (minute) => 8 * GB - minute * 0.066 * GB) },
            { service: 'claims-db', name: 'TransactionLogsDiskUsage', points: series(START, 120, (minute) => 170 * GB + minute * walRisePerMinute * GB) },
            { service: 'claims-db', name: 'CPUUtilization', points: series(START, 120, (minute) => 20 + (minute % 5)) },
          ],
          logs: failing('claims-api', 'insert claim failed: could not extend file "base/16401/2689696": No space left on device'),
        }),
      ).draft.rootCause.summary;
    expect(summary(0.066)).toMatch(/free space keeps falling toward zero, taken by what grows with it \(transaction logs disk usage\)/);
    expect(summary(0.001)).not.toMatch(/transaction logs/);
  });

  it('requests, errors and CPU rising beside a filling volume do not fill it; a change that turned the log level to DEBUG does', () => {
    const filled = (environment: Record<string, unknown>) =>
      diagnose(
        boardFrom({
          services: [{ name: 'renderer', kind: 'ecs' }],
          changes: [{ service: 'renderer', timestamp: at(START, -20), kind: 'deploy', summary: 'renderer v2.3.1 rolled out', details: { taskDefinitionDiff: { environment } } }],
          metrics: [
            { service: 'renderer', name: 'DiskUtilization', points: series(START, 120, (minute) => Math.min(100, 40 + minute * 0.6)) },
            { service: 'renderer', name: 'CPUUtilization', points: series(START, 120, step(60, 20, 60)) },
            { service: 'renderer', name: 'RequestCount', points: series(START, 120, step(60, 100, 400)) },
          ],
          logs: failing('renderer', 'could not save /var/cache/render/r-1.png: ENOSPC: no space left on device', 100),
        }),
      ).draft.rootCause.summary;
    const verbose = filled({ LOG_LEVEL: { from: 'INFO', to: 'DEBUG' } });
    expect(verbose).toContain('A storage volume at renderer is filling');
    expect(verbose).not.toMatch(/taken by what grows with it/);
    expect(verbose).toContain('The deploy change set LOG_LEVEL from INFO to DEBUG: the log files it writes fill the volume.');
    expect(filled({ FEATURE_THUMBNAILS: 'on' })).not.toContain('log files');
  });

  it('messages received far more often than sent, after the visibility timeout was lowered, are redeliveries', () => {
    const diagnosis = diagnose(
      boardFrom({
        services: [{ name: 'jobs', kind: 'sqs' }, { name: 'printer', kind: 'lambda', dependsOn: ['jobs'] }],
        changes: [{ service: 'jobs', timestamp: at(START, 58), kind: 'config', summary: 'SetQueueAttributes jobs: VisibilityTimeout 720 -> 30' }],
        metrics: [
          { service: 'jobs', name: 'NumberOfMessagesSent', points: series(START, 120, (minute) => 500 + (minute % 5)) },
          { service: 'jobs', name: 'NumberOfMessagesReceived', points: series(START, 120, (minute) => (minute >= 60 ? 1300 : 500) + (minute % 5)) },
        ],
        logs: failing('printer', 'label for shipment SHP-1 already exists: created twice'),
      }),
    );
    expect(diagnosis.draft.rootCause.summary).toMatch(/received about 2\.6 times for each one sent: they are redelivered/);
    expect(diagnosis.draft.rootCause.summary).toMatch(/visibility timeout was lowered from 720 to 30 seconds/);
  });

  it('a secret moved to a new version just before calls are refused is named a rotated secret', () => {
    const diagnosis = diagnose(
      boardFrom({
        services: [{ name: 'poller', kind: 'ecs', dependsOn: ['carrier-key'] }, { name: 'carrier-key', kind: 'other' }],
        changes: [{ service: 'carrier-key', timestamp: at(START, 58), kind: 'config', summary: 'UpdateSecretVersionStage carrier/api-key: AWSCURRENT -> v7' }],
        logs: failing('poller', 'GET /v3/tracking -> 401 Unauthorized {"error":"invalid_api_key"}'),
      }),
    );
    expect(diagnosis.draft.rootCause.summary).toMatch(/A rotated secret: carrier-key moved to a new secret version/);
  });

  it('a change that replaced a network ACL entry with a deny names a revoked rule, though the errors only time out', () => {
    const diagnosis = diagnose(
      boardFrom({
        services: [{ name: 'worker', kind: 'ecs', dependsOn: ['subnet-acl'] }, { name: 'subnet-acl', kind: 'other' }],
        changes: [{ service: 'subnet-acl', timestamp: at(START, 58), kind: 'network', summary: 'ReplaceNetworkAclEntry acl-1 egress rule 100: allow tcp 443 -> deny' }],
        logs: failing('worker', 'upload failed: connect ETIMEDOUT 52.95.160.9:443'),
      }),
    );
    expect(diagnosis.draft.rootCause.summary).toMatch(/A network rule that let traffic reach .* was revoked/);
  });

  it('a third party a person names in a question is not reported as failing when nothing shows it failing', () => {
    const diagnosis = diagnose(
      boardFrom({
        brief: 'A teammate asks: "Revenue on the dashboard is 18% higher than the stripe payout report."',
        services: [{ name: 'exporter', kind: 'lambda', dependsOn: ['stripe'] }, { name: 'stripe', kind: 'external' }],
        logs: failing('exporter', 'export of window 2026-05-23T13 failed: constraint violation on orders_export'),
      }),
    );
    expect(diagnosis.draft.rootCause.service).toBe('exporter');
    expect(diagnosis.draft.impact).not.toMatch(/stripe/);
  });

  it('a quoted error keeps to one line', () => {
    const diagnosis = diagnose(boardFrom({ services: [{ name: 'cart', kind: 'ecs' }], logs: failing('cart', 'Communications link failure\n\nThe last packet was sent 14,497 ms ago') }));
    expect(diagnosis.draft.rootCause.summary).toMatch(/Communications link failure The last packet/);
  });
});
