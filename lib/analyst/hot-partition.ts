import type { EvidenceBoard, Series } from './evidence-board.ts';
import { callersOf, dependenciesOf, kindOf } from './service-map.ts';
import { namesService, type Signal } from './signals.ts';

/**
 * DynamoDB's own word that one partition, not the table, ran out of throughput: the throttles it
 * counts per key range (`WriteKeyRangeThroughputThrottleEvents`), or the reason it gives a refused
 * request (`TableReadKeyRangeThroughputExceeded`). A partition serves only so many reads and writes
 * a second whatever the table's capacity, so requests crowded onto one key are throttled while the
 * table has room to spare.
 */
export const keyRangeThrottling = /KeyRange\w*?Throttl|KeyRange\w*?Exceeded/i;

const throttledSeries = (series: Series): boolean => keyRangeThrottling.test(series.name) && series.points.some(([, value]) => value > 0);

/** Whether a table's own measures say its throttling was per key range: one hot partition, not the whole table. */
export const seriesThrottledByKeyRange = (series: readonly Series[]): boolean => series.some(throttledSeries);

/**
 * Whether the throttling at `table` fell on one key range: its own measures or signals say so, or a
 * client refused by it gives that reason (naming the table, or calling no other table).
 */
export const throttledByKeyRange = (board: EvidenceBoard, table: string, signals: readonly Signal[]): boolean => {
  if (kindOf(board, table) !== 'dynamodb') return false;
  if (seriesThrottledByKeyRange(board.series.filter((series) => series.service === table))) return true;
  if (signals.some((signal) => signal.service === table && keyRangeThrottling.test(signal.text))) return true;
  const soleTableOf = (client: string) => dependenciesOf(board, client).filter((callee) => kindOf(board, callee) === 'dynamodb').length === 1;
  const clients = new Set(callersOf(board, table));
  return board.logs.some((line) => clients.has(line.service) && keyRangeThrottling.test(line.message) && (namesService(line.message, table) || soleTableOf(line.service)));
};

/** A partition key as clients log it: `pk=CAMPAIGN#2026`, `partitionKey: "tenant-42"`. */
const loggedKey = /\b(?:pk|partition[_ ]?key|partitionKey|hash[_ ]?key)\s*[=:]\s*"?([^\s",;)]+)/gi;

/** The partition keys a client's lines name, most often named first (at most three). */
export const keysNamedBy = (board: EvidenceBoard, client: string): string[] => {
  const counts = new Map<string, number>();
  for (const line of board.logs.filter((candidate) => candidate.service === client)) {
    for (const [, key] of line.message.matchAll(loggedKey)) counts.set(key!, (counts.get(key!) ?? 0) + 1);
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, 3).map(([key]) => key);
};

/** How a client's requests crowd one partition of a table, in plain words. */
export const hotPartitionWords = (client: string, table: string, keys: readonly string[]): string =>
  `${client} sends its requests to one partition of ${table}${keys.length > 0 ? ` (its lines name the partition key${keys.length > 1 ? 's' : ''} ${keys.join(', ')})` : ''}: ${table} throttles them per key range, a hot partition, since a single partition serves only so much whatever the table's capacity, and the other clients' requests to that partition are throttled with them.`;

/** How a table throttles the requests crowding one of its partitions, in plain words. */
export const hotPartitionAtTableWords = (table: string): string =>
  `${table} throttles the requests on one partition: it counts its throttles per key range, so one hot partition takes more reads or writes than a single partition serves, whatever the table's provisioned capacity.`;
