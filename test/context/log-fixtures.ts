export { seededRandom as seeded } from '../../lib/random/seeded-random.ts';
/** Application logs for the context-budget tests: seeded, so a failure reproduces. */

export type Random = () => number;


export interface LogRecord {
  timestamp: string;
  service: string;
  level: string;
  message: string;
  fields?: Record<string, unknown>;
}

const int = (random: Random, low: number, high: number) => low + Math.floor(random() * (high - low + 1));

/** INFO request noise with ids and latencies, and a benign WARN about every 50 lines. */
export function noiseRecords(count: number, random: Random, start = Date.parse('2026-04-06T03:00:00.000Z')): LogRecord[] {
  const records: LogRecord[] = [];
  let clock = start;
  for (let index = 0; index < count; index += 1) {
    clock += int(random, 1, 40);
    const timestamp = new Date(clock).toISOString();
    const roll = random();
    if (roll < 0.02) {
      records.push({ timestamp, service: 'inventory', level: 'WARN', message: `slow query on inventory.reserve took ${int(random, 501, 1900)}ms (threshold 500ms)` });
    } else if (roll < 0.5) {
      records.push({ timestamp, service: 'web', level: 'INFO', message: `GET /api/orders/${int(random, 10000, 99999)} 200 ${int(random, 3, 300)}ms req=${int(random, 1e8, 9e8).toString(16)}` });
    } else if (roll < 0.8) {
      records.push({ timestamp, service: 'orders', level: 'INFO', message: `processed message m-${int(random, 1e6, 9e6)} from queue orders-events in ${int(random, 1, 90)}ms` });
    } else {
      records.push({ timestamp, service: 'inventory', level: 'INFO', message: `cache hit key=product:${int(random, 1, 50000)} ttl=${int(random, 10, 3600)}s` });
    }
  }
  return records;
}

export const renderRecord = (record: LogRecord): string => `${record.timestamp} ${record.service} ${record.level} ${record.message}`;

export const decisiveMessages = [
  { service: 'orders', level: 'FATAL', message: 'migration 0042 failed: column "sku_v2" does not exist' },
  { service: 'inventory', level: 'ERROR', message: 'java.lang.OutOfMemoryError: Java heap space' },
  { service: 'exporter', level: 'ERROR', message: 'AccessDenied: not authorized to perform s3:PutObject on arn:aws:s3:::shop-exports/orders.csv' },
  { service: 'payments', level: 'FATAL', message: 'panic: runtime error: invalid memory address or nil pointer dereference' },
  { service: 'orders', level: 'ERROR', message: 'Connection refused: payments-db.internal:5432' },
] as const;

/** Replaces the records at random distinct positions (away from both ends) with the decisive lines; returns the positions. */
export function plant(records: LogRecord[], random: Random): number[] {
  const positions = new Set<number>();
  const margin = Math.floor(records.length * 0.05);
  while (positions.size < decisiveMessages.length) positions.add(int(random, margin, records.length - 1 - margin));
  return [...positions].map((position, index) => {
    records[position] = { ...decisiveMessages[index]!, timestamp: records[position]!.timestamp };
    return position;
  });
}
