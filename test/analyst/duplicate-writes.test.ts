import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom } from './board-builder.ts';

const START = '2026-05-01T10:00:00.000Z';

describe('the same unit of work written twice', () => {
  it('one batch committed again, among batches that are otherwise each committed once, is a duplicate', () => {
    const logs = Array.from({ length: 20 }, (_, index) => ({ service: 'exporter', timestamp: at(START, index * 6), level: 'INFO', message: `committed window 2026-05-01T${String(index).padStart(2, '0')} (1${index}00 rows)` }));
    logs.push({ service: 'exporter', timestamp: at(START, 121), level: 'INFO', message: 'committed window 2026-05-01T19 (11900 rows)' });
    const diagnosis = diagnose(boardFrom({ brief: 'Question: are the report rows right?', services: [{ name: 'exporter', kind: 'ecs' }], logs }));
    expect(diagnosis.incident).toBe(true);
    expect(diagnosis.draft.rootCause.category).toBe('data');
  });

  it('a message that names only a batch size and one of a few shards repeats by chance, not because work was redone', () => {
    const logs = Array.from({ length: 40 }, (_, index) => ({
      service: 'consumer',
      timestamp: at(START, index * 3),
      level: 'INFO',
      message: `processed batch of ${95 + (index % 5)} records from shard-${index % 3}; wrote usage rows`,
    }));
    const diagnosis = diagnose(boardFrom({ brief: 'Scheduled health sweep', services: [{ name: 'consumer', kind: 'lambda' }], logs }));
    expect(diagnosis.incident).toBe(false);
  });

  it('what is loaded from somewhere was read: the same key loaded again into a cache is no write done twice', () => {
    const regions = ['AT-1', 'AT-2', 'AT-3', 'DE-BY', 'DE-NW', 'AT-2'];
    const sweep = (verb: string) =>
      diagnose(
        boardFrom({
          brief: 'Scheduled health sweep',
          services: [{ name: 'rules', kind: 'lambda' }],
          logs: regions.map((region, index) => ({ service: 'rules', timestamp: at(START, index * 15), level: 'WARN', message: `rules cache miss for region ${region}; ${verb} 600ms` })),
        }),
      ).incident;
    expect(sweep('loaded from S3 in')).toBe(false);
    expect(sweep('loaded into the rules table in')).toBe(true);
  });

  it('a line of counters only tallies work: two alike are the same tally, while the same counts after a named window are a write done twice', () => {
    const counts = [13, 30, 14, 22, 17, 25, 19, 28, 11, 16, 13];
    const sweep = (message: (count: number, index: number) => string) =>
      diagnose(
        boardFrom({
          brief: 'Scheduled health sweep',
          services: [{ name: 'worker', kind: 'ecs' }],
          logs: counts.map((count, index) => ({ service: 'worker', timestamp: at(START, index * 6), level: 'INFO', message: message(count, index) })),
        }),
      ).incident;
    expect(sweep((count) => `consumer stats window=60s received=${count} upserted=${count} failed=0`)).toBe(false);
    expect(sweep((count) => `POST /webhooks/ups 202 18ms accepted=${count} published to parcel-events`)).toBe(false);
    expect(sweep((count, index) => `upserted window 2026-05-01T${String(index === 10 ? 0 : index).padStart(2, '0')} received=${count}`)).toBe(true);
  });
});
