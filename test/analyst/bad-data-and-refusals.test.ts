import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, linesFrom, series, sorted } from './board-builder.ts';

const START = '2026-05-01T10:00:00.000Z';
const lines = linesFrom(START);

describe('bad data is the fault of whoever wrote it', () => {
  it('a consumer that cannot parse a record leads to the producer that logged the same item just before', () => {
    const diagnosis = diagnose(
      boardFrom({
        brief: 'CloudWatch alarm "detector-iterator-age" is in ALARM',
        services: [
          { name: 'gateway', kind: 'ecs', dependsOn: ['readings'] },
          { name: 'readings', kind: 'other' },
          { name: 'detector', kind: 'lambda', dependsOn: ['readings', 'state'] },
          { name: 'state', kind: 'dynamodb' },
          { name: 'dashboard', kind: 'ecs', dependsOn: ['state'] },
        ],
        alarms: [{ name: 'detector-iterator-age', service: 'detector', state: 'ALARM', since: at(START, 100) }],
        changes: [{ service: 'dashboard', timestamp: at(START, 80), kind: 'deploy', summary: 'dashboard 2026.11 rolled out' }],
        metrics: [{ service: 'detector', name: 'IteratorAge', points: series(START, 120, (minute) => (minute < 90 ? 500 : (minute - 90) * 60000)) }],
        logs: sorted([
          ...lines('detector', 0, 5, 18, 'INFO', (index) => `batch ${index} processed`),
          ...lines('gateway', 89, 1, 1, 'WARN', () => 'unit TRK-4471 frame length 1024 < declared 1712, forwarding as received'),
          ...lines('detector', 90, 3, 10, 'ERROR', () => 'failed to decode record partitionKey=TRK-4471: SyntaxError: Unexpected end of JSON input'),
        ]),
      }),
    );
    expect(diagnosis.root).toBe('gateway');
    expect(diagnosis.category).toBe('data');
  });

  it('a tenant or batch the consumer also handled fine names a group of records, not the bad one: the writer of the record itself is blamed', () => {
    const diagnosis = diagnose(
      boardFrom({
        brief: 'CloudWatch alarm "ledger-postings-backlog" is in ALARM',
        services: [
          { name: 'bank-feed-sync', kind: 'lambda', dependsOn: ['postings-fifo'] },
          { name: 'journal-import-api', kind: 'ecs', dependsOn: ['postings-fifo'] },
          { name: 'postings-fifo', kind: 'sqs' },
          { name: 'posting-worker', kind: 'ecs', dependsOn: ['postings-fifo'] },
        ],
        alarms: [{ name: 'ledger-postings-backlog', service: 'postings-fifo', state: 'ALARM', since: at(START, 100) }],
        metrics: [{ service: 'postings-fifo', name: 'ApproximateAgeOfOldestMessage', points: series(START, 120, (minute) => (minute < 52 ? 5 : (minute - 52) * 60)) }],
        logs: sorted([
          ...lines('bank-feed-sync', 30, 15, 6, 'INFO', () => 'enqueued 192 messages to ledger-postings.fifo across 40 message groups (acct-4471: 17)'),
          ...lines('posting-worker', 0, 3, 17, 'INFO', (index) => `committed posting group=acct-4471 messageId=m-${index}a journal=JE-${index}`),
          ...lines('journal-import-api', 51, 1, 1, 'INFO', () => 'POST /v1/tenants/4471/journal-imports 202 uploadId=upl_9f31c2e07a rows=212 group=acct-4471'),
          ...lines('posting-worker', 52, 2, 20, 'ERROR', () => "posting failed messageId=5b0f6c1e-8d2a group=acct-4471 dedupId=upl_9f31c2e07a-row-37: ParseError: field 'amount': '1.250,00' is not a valid decimal"),
          ...lines('posting-worker', 53, 6, 8, 'WARN', () => 'group acct-4471: 7 later messages in this batch left unprocessed to keep FIFO order'),
        ]),
      }),
    );
    expect(diagnosis.root).toBe('journal-import-api');
    expect(diagnosis.draft.rootCause.summary).toContain('FIFO queue it holds back every later message of its message group');
  });

  it('a consumer that announces each message as it takes it, just before failing on it, still names the bad record: its writer is blamed, and the record that fails on every retry is worded', () => {
    const attempts = [52, 55, 58, 61, 64, 67];
    const diagnosis = diagnose(
      boardFrom({
        brief: 'CloudWatch alarm "fulfilment-queue-age" is in ALARM',
        services: [
          { name: 'order-svc', kind: 'ecs', dependsOn: ['fulfilment.fifo'] },
          { name: 'fulfilment.fifo', kind: 'sqs' },
          { name: 'fulfiller', kind: 'lambda', dependsOn: ['fulfilment.fifo'] },
        ],
        alarms: [{ name: 'fulfilment-queue-age', service: 'fulfilment.fifo', state: 'ALARM', since: at(START, 60) }],
        changes: [
          { service: 'fulfiller', timestamp: at(START, 30), kind: 'deploy', summary: 'fulfiller 2.7.0 published (retries with jitter)' },
          { service: 'order-svc', timestamp: at(START, 45), kind: 'deploy', summary: 'order-svc v4.12.0 rolled out (gift card amount as Money object)' },
        ],
        metrics: [{ service: 'fulfilment.fifo', name: 'ApproximateAgeOfOldestMessage', points: series(START, 90, (minute) => (minute < 52 ? 5 : (minute - 52) * 60)) }],
        logs: sorted([
          ...lines('order-svc', 0, 5, 18, 'INFO', (index) => `published OrderPlaced order=ord_${1000 + index}x messageId=m-${index}a`),
          ...lines('order-svc', 51, 1, 1, 'INFO', () => 'published OrderPlaced order=ord_8QK2M7 messageId=5e0b9f4c-27a1'),
          ...lines('fulfiller', 0, 5, 10, 'INFO', (index) => `processed OrderPlaced messageId=m-${index}a`),
          ...attempts.map((minute) => ({ service: 'fulfiller', timestamp: at(START, minute), level: 'INFO', message: 'received OrderPlaced messageId=5e0b9f4c-27a1 order=ord_8QK2M7' })),
          ...attempts.map((minute) => ({ service: 'fulfiller', timestamp: new Date(Date.parse(at(START, minute)) + 900).toISOString(), level: 'ERROR', message: `RequestId: ${minute}d36ba2-c7eb ERROR failed to parse OrderPlaced messageId=5e0b9f4c-27a1 order=ord_8QK2M7: ZodError: expected number, received object` })),
        ]),
      }),
    );
    expect(diagnosis.root).toBe('order-svc');
    expect(diagnosis.draft.rootCause.summary).toContain('The same record fails again on every retry (a poison message)');
  });

  it('a writer that logged the item long before its release is still blamed through that release, which came before the record that failed', () => {
    const diagnosis = diagnose(
      boardFrom({
        brief: 'CloudWatch alarm "tickets-oldest-age" is in ALARM',
        services: [
          { name: 'gateway', kind: 'ecs', dependsOn: ['tickets'] },
          { name: 'tickets', kind: 'sqs' },
          { name: 'settler', kind: 'ecs', dependsOn: ['tickets'] },
        ],
        alarms: [{ name: 'tickets-oldest-age', service: 'tickets', state: 'ALARM', since: at(START, 100) }],
        changes: [{ service: 'gateway', timestamp: at(START, 70), kind: 'deploy', summary: 'gateway 5.2.0: ticket payload v3' }],
        logs: sorted([
          ...lines('gateway', 0, 10, 12, 'INFO', (index) => `ticket T-${1000 + index} sent for site MRW-02`),
          ...lines('settler', 0, 5, 18, 'INFO', (index) => `ticket ${index} settled`),
          ...lines('settler', 90, 3, 10, 'ERROR', () => 'failed to deserialize ticket for site MRW-02: MismatchedInputException: Cannot deserialize gradeAdjustments'),
        ]),
      }),
    );
    expect(diagnosis.root).toBe('gateway');
    expect(diagnosis.suspectChange?.summary).toMatch(/5\.2\.0/);
  });

  it('a producer that fails on its own input is not handed to a consumer that logs the same item later', () => {
    const diagnosis = diagnose(
      boardFrom({
        brief: 'CloudWatch alarm "import-errors" is in ALARM',
        services: [{ name: 'importer', kind: 'lambda', dependsOn: ['events'] }, { name: 'events', kind: 'sqs' }, { name: 'projector', kind: 'lambda', dependsOn: ['events'] }],
        alarms: [{ name: 'import-errors', service: 'importer', state: 'ALARM', since: at(START, 95) }],
        logs: sorted([
          ...lines('importer', 0, 5, 18, 'INFO', (index) => `file ${index} imported`),
          ...lines('importer', 90, 3, 10, 'ERROR', () => 'row 1184: failed to parse unit_price for order ord_globex-735454'),
          ...lines('projector', 93, 3, 8, 'ERROR', () => 'projection failed for order ord_globex-735454: price is null'),
        ]),
      }),
    );
    expect(diagnosis.root).toBe('importer');
  });

  /** A stream reader that rejects a property it has no field for, after its only upstream writer's release (or after its own, too; or with no release at all). */
  const unknownPropertyBoard = (readerReleasedAfter: boolean, writerReleased = true) =>
    boardFrom({
      brief: 'CloudWatch alarm "meter-stream-age" is in ALARM',
      services: [
        { name: 'meter-agent', kind: 'ecs', dependsOn: ['meter-stream'] },
        { name: 'meter-stream', kind: 'kinesis' },
        { name: 'rater', kind: 'ecs', dependsOn: ['meter-stream', 'rates-db'] },
        { name: 'rates-db', kind: 'rds' },
        { name: 'statements', kind: 'ecs', dependsOn: ['rates-db'] },
      ],
      alarms: [{ name: 'meter-stream-age', service: 'meter-stream', state: 'ALARM', since: at(START, 80) }],
      changes: [
        { service: 'statements', timestamp: at(START, 5), kind: 'deploy', summary: 'statements 7.1.0 rolled out (PDF footer)' },
        ...(writerReleased ? [{ service: 'meter-agent', timestamp: at(START, 46), kind: 'deploy', summary: 'meter-agent 3.4.0 rolled out (tags each reading with its contract)' }] : []),
        ...(readerReleasedAfter ? [{ service: 'rater', timestamp: at(START, 48), kind: 'deploy', summary: 'rater 12.0.0 rolled out (strict reading model)' }] : []),
      ],
      metrics: [{ service: 'meter-stream', name: 'IteratorAge', points: series(START, 90, (minute) => (minute < 50 ? 400 : (minute - 50) * 60000)) }],
      logs: sorted([
        ...lines('meter-agent', 0, 5, 18, 'INFO', (index) => `put ${300 + index} readings to the stream`),
        ...lines('rater', 0, 5, 10, 'INFO', (index) => `rated ${280 + index} readings`),
        ...lines('rater', 50, 3, 12, 'ERROR', () => 'reading rejected: UnrecognizedPropertyException: Unrecognized field "contractRef" (class Reading), not marked as ignorable'),
      ]),
    });

  it('a reader refusing a property it does not know, where no writer names the record, leads to the one writer upstream released just before', () => {
    const diagnosis = diagnose(unknownPropertyBoard(false));
    expect(diagnosis.root).toBe('meter-agent');
    expect(diagnosis.draft.rootCause.summary).toContain('rater cannot read what meter-agent writes');
    expect(diagnosis.draft.rootCause.summary).toContain('Unrecognized field');
  });

  it('but not when the reader was itself released after that writer: its own release may be what no longer reads the records', () => {
    expect(diagnose(unknownPropertyBoard(true)).root).not.toBe('meter-agent');
  });

  /** A worker that looks up a key each event lacks, after the bus routing events to its queue had a change of `kind` two minutes before. */
  const missingKeyBoard = (kind: string) =>
    boardFrom({
      brief: 'CloudWatch alarm "picker-errors" is in ALARM',
      services: [
        { name: 'shop-api', kind: 'ecs', dependsOn: ['shop-bus'] },
        { name: 'shop-bus', kind: 'other', dependsOn: ['picks-queue'] },
        { name: 'picks-queue', kind: 'sqs' },
        { name: 'picker', kind: 'lambda', dependsOn: ['picks-queue'] },
      ],
      alarms: [{ name: 'picker-errors', service: 'picker', state: 'ALARM', since: at(START, 52) }],
      changes: [{ service: 'shop-bus', timestamp: at(START, 48), kind, summary: 'stack shop-events updated: PicksRule targets modified' }],
      metrics: [{ service: 'picker', name: 'Errors', points: series(START, 90, (minute) => (minute < 50 ? 0 : 40)) }],
      logs: sorted([
        ...lines('shop-api', 0, 5, 18, 'INFO', (index) => `order ${700 + index} placed`),
        ...lines('picker', 0, 5, 10, 'INFO', (index) => `pick list ${500 + index} sent to the floor`),
        ...lines('picker', 50, 3, 12, 'ERROR', (index) => `record failed messageId=m-${index}a: KeyError: 'eventType'`),
      ]),
    });

  it('a record lacking a key its reader looks up is bad data, written by the route whose stack changed just before', () => {
    const diagnosis = diagnose(missingKeyBoard('infrastructure'));
    expect(diagnosis.root).toBe('shop-bus');
    expect(diagnosis.draft.rootCause.summary).toContain('picker cannot read what shop-bus writes');
  });

  it('a change of capacity at the writer does not change what it writes', () => {
    const diagnosis = diagnose(missingKeyBoard('scaling'));
    expect(diagnosis.root).toBe('picker');
    expect(diagnosis.category).toBe('data');
  });

  it('a property the reader does not know is bad data to it, even with no release to blame', () => {
    const diagnosis = diagnose(unknownPropertyBoard(false, false));
    expect(diagnosis.root).toBe('rater');
    expect(diagnosis.category).toBe('data');
  });
});

describe('a callee that refuses the caller\'s credential works; the caller\'s key does not', () => {
  it('HTTP 401s from a provider after a key rotation that other clients picked up blame the client that kept the old key', () => {
    const diagnosis = diagnose(
      boardFrom({
        brief: 'CloudWatch alarm "eta-fallback" is in ALARM',
        services: [
          { name: 'eta', kind: 'ecs', dependsOn: ['maps', 'maps-key'] },
          { name: 'planner', kind: 'lambda', dependsOn: ['maps', 'maps-key'] },
          { name: 'rotator', kind: 'lambda', dependsOn: ['maps', 'maps-key'] },
          { name: 'maps-key', kind: 'other' },
          { name: 'maps', kind: 'external' },
        ],
        alarms: [{ name: 'eta-fallback', service: 'eta', state: 'ALARM', since: at(START, 95) }],
        changes: [{ service: 'rotator', timestamp: at(START, 88), kind: 'config', summary: 'RotateSecret prod/maps/api-key (RotateImmediately=true)' }],
        logs: sorted([
          ...lines('eta', 0, 5, 18, 'INFO', (index) => `eta ${index} computed`),
          ...lines('eta', 90, 3, 10, 'ERROR', () => 'maps POST /v2/route -> 401 Unauthorized {"error":"invalid_api_key"}'),
          ...lines('eta', 90, 3, 10, 'WARN', (index) => `eta fallback to zone average order=${index} reason=provider_error`),
          ...lines('planner', 0, 5, 24, 'INFO', (index) => `plan ${index} built`),
        ]),
      }),
    );
    expect(diagnosis.root).toBe('eta');
    expect(diagnosis.category).toBe('permissions');
  });
});

describe('bad data is the fault of whoever wrote it first, upstream along the data', () => {
  it('a reconciler that finds an item wrong leads past the service that applied it to the publisher that wrote it first, and to its release before the write', () => {
    const minute = (offset: number) => at(START, offset);
    const diagnosis = diagnose(
      boardFrom({
        brief: 'CloudWatch alarm "price-mismatches" is in ALARM',
        services: [
          { name: 'publisher', kind: 'lambda', dependsOn: ['price-updates'] },
          { name: 'price-updates', kind: 'sqs' },
          { name: 'catalog', kind: 'ecs', dependsOn: ['price-updates', 'items'] },
          { name: 'items', kind: 'dynamodb' },
          { name: 'reconciler', kind: 'ecs', dependsOn: ['items'] },
        ],
        alarms: [{ name: 'price-mismatches', service: 'reconciler', state: 'ALARM', since: minute(250) }],
        changes: [{ service: 'publisher', timestamp: minute(10), kind: 'deploy', summary: 'publisher 3.0.0 (money library migration)' }],
        logs: [
          { service: 'publisher', timestamp: minute(30), level: 'INFO', message: 'published price update HYD-37442 unit_price=45290' },
          { service: 'catalog', timestamp: minute(31), level: 'INFO', message: 'applied price update HYD-37442: 452.90 -> 45290.00 (source=publisher)' },
          ...Array.from({ length: 8 }, (_, index) => ({ service: 'reconciler', timestamp: minute(240 + index), level: 'ERROR', message: `mismatch HYD-37442: erp=452.90 catalog=45290.00 diff=+9900.0% (check ${index})` })),
        ],
      }),
    );
    expect(diagnosis.root).toBe('publisher');
    expect(diagnosis.suspectChange?.summary).toContain('publisher 3.0.0');
  });
});

describe('bad data published into a topic that fans out into the reader\'s queue', () => {
  /** A publisher writes to a topic that delivers into the billing queue; the reader was released long before, the publisher just before. */
  const fannedOut = () =>
    boardFrom({
      brief: 'CloudWatch alarm "billing-dlq-not-empty" is in ALARM',
      services: [
        { name: 'tracking-api', kind: 'ecs', dependsOn: ['status-topic'] },
        { name: 'status-topic', kind: 'sns', dependsOn: ['billing-queue'] },
        { name: 'billing-queue', kind: 'sqs' },
        { name: 'biller', kind: 'ecs', dependsOn: ['billing-queue'] },
      ],
      alarms: [{ name: 'billing-dlq-not-empty', service: 'billing-queue', state: 'ALARM', since: at(START, 62) }],
      changes: [
        { service: 'biller', timestamp: at(START, 10), kind: 'deploy', summary: 'biller 2.4.0 rolled out (runtime upgrade)' },
        { service: 'tracking-api', timestamp: at(START, 48), kind: 'deploy', summary: 'tracking-api 6.0.0 rolled out (new carrier statuses)' },
      ],
      metrics: [{ service: 'billing-queue', name: 'ApproximateNumberOfMessagesVisible', points: series(START, 90, (minute) => (minute < 50 ? 4 : (minute - 50) * 20)) }],
      logs: sorted([
        ...lines('biller', 0, 5, 10, 'INFO', (index) => `rated status batch ${400 + index}`),
        ...lines('biller', 50, 3, 12, 'ERROR', () => 'message rejected: InvalidFormatException: Cannot deserialize value of type `Status` from String "PARCEL_LOCKER": not one of the values accepted'),
      ]),
    });

  it('was written by the publisher released just before: the topic only passes it on', () => {
    const diagnosis = diagnose(fannedOut());
    expect(diagnosis.root).toBe('tracking-api');
    expect(diagnosis.draft.rootCause.summary).toContain('biller cannot read what tracking-api writes');
  });
});
