import { quoteMessage } from '../text/quote.ts';
import { clientsOfUser, sessionOf } from './database-user.ts';
import type { EvidenceBoard, LogRecord } from './evidence-board.ts';
import { callersOf } from './service-map.ts';
import { iso } from './signals.ts';

/**
 * A transaction a client keeps open on a database, its session idle in transaction: while it stays
 * open, vacuum may not remove any row that transaction could still see (it holds back the oldest
 * xmin), so dead rows pile up, tables bloat and every query reads more. The database dates it: a
 * report of its sessions gives the transaction's age and user (pg_stat_activity's `usename`,
 * `state`, `xact_start`), or a measure of the oldest idle transaction's age (Performance Insights'
 * `db.state.idle_in_transaction_max_time`) counts back to when it opened, and the client that
 * connected or began its work at that second holds it.
 */
export interface OpenTransaction {
  holder: string;
  openedAt: number;
  /** Its age at the latest reading, in seconds. */
  ageSeconds: number;
}

const idleInTransaction = /idle.in.transaction/i;
const reportedUser = /\b(?:usename|user(?:name)?|role)\s*[=:]\s*"?([A-Za-z][\w.-]*)/i;
const reportedAge = /\b(?:xact_age|transaction_age|idle_age)(?:_s|_seconds)?\s*[=:]\s*(\d+)/i;
const ageMeasure = /idle.?in.?transaction.*(max.?time|age)|oldest.?(xact|transaction).?age/i;

/** A transaction open this long is held, not merely slow. */
const HELD_SECONDS = 600;
/** How close to the second the age measure dates it the holder's connection or work shows. */
const OPENED_WITHIN_MS = 60_000;

/** Reports of a session idle in transaction, by the database or by a monitor that connects to it. */
const reportsOn = (board: EvidenceBoard, database: string): { line: LogRecord; user: string; age: number }[] => {
  const reporters = new Set([database, ...callersOf(board, database)]);
  return board.logs.flatMap((line) => {
    if (!reporters.has(line.service) || !idleInTransaction.test(line.message)) return [];
    const user = reportedUser.exec(line.message)?.[1];
    const age = Number(reportedAge.exec(line.message)?.[1]);
    return user && age >= HELD_SECONDS ? [{ line, user, age }] : [];
  });
};

const fromReports = (board: EvidenceBoard, database: string, clients: readonly string[]): OpenTransaction | undefined => {
  const oldest = reportsOn(board, database).sort((a, b) => b.age - a.age)[0];
  if (!oldest) return undefined;
  const holders = clientsOfUser(board, oldest.user, clients);
  return holders.length === 1 ? { holder: holders[0]!, openedAt: oldest.line.at - oldest.age * 1000, ageSeconds: oldest.age } : undefined;
};

/** The database's measure of its oldest idle transaction, still climbing past the held age: when it opened, and how old it is. */
export const datedByMeasure = (board: EvidenceBoard, database: string): { openedAt: number; age: number } | undefined => {
  for (const series of board.series.filter((candidate) => candidate.service === database && ageMeasure.test(candidate.name))) {
    const [first, last] = [series.points[0], series.points.at(-1)];
    if (!first || !last || last[1] < HELD_SECONDS || last[1] <= first[1]) continue;
    const seconds = series.unit === 'Milliseconds' ? last[1] / 1000 : last[1];
    return { openedAt: Date.parse(last[0]) - seconds * 1000, age: seconds };
  }
  return undefined;
};

/** Whether a line was logged within the moment the transaction opened. */
export const atOpening = (openedAt: number, at: number): boolean => Math.abs(at - openedAt) <= OPENED_WITHIN_MS;

const fromMeasure = (board: EvidenceBoard, database: string, clients: readonly string[]): OpenTransaction | undefined => {
  const dated = datedByMeasure(board, database);
  if (!dated) return undefined;
  const near = (line: LogRecord) => atOpening(dated.openedAt, line.at);
  const found = (holders: readonly string[]) => (holders.length === 1 ? { holder: holders[0]!, openedAt: dated.openedAt, ageSeconds: dated.age } : undefined);
  // The session the database saw connect or run then names its user; failing that, the one client that began work then.
  const users = new Set(board.logs.filter((line) => line.service === database && near(line)).flatMap((line) => sessionOf.exec(line.message)?.[1] ?? []));
  const byUser = new Set([...users].flatMap((user) => clientsOfUser(board, user, clients)));
  return found([...byUser]) ?? found([...new Set(board.logs.filter((line) => clients.includes(line.service) && near(line)).map((line) => line.service))]);
};

/** The one client keeping a transaction open on the database, as the database dates and names it. */
export const openTransactionOn = (board: EvidenceBoard, database: string, clients: readonly string[]): OpenTransaction | undefined =>
  fromReports(board, database, clients) ?? fromMeasure(board, database, clients);

/** Vacuum's own account of the rows it could not remove (PostgreSQL's autovacuum log). */
const notRemovable = /\d+ are dead but not yet removable/;

export const openTransactionWords = (board: EvidenceBoard, holder: string, database: string): string => {
  const open = openTransactionOn(board, database, [holder]);
  const since = open ? ` since ${iso(open.openedAt)}` : '';
  const vacuum = board.logs.filter((line) => line.service === database && notRemovable.test(line.message)).at(-1);
  const vacuumSays = vacuum ? ` Vacuum's own account: "${quoteMessage(notRemovable.exec(vacuum.message)![0])}".` : '';
  return `${holder} keeps a transaction open on ${database}${since} (its session sits idle in transaction): vacuum cannot remove the rows that transaction may still see (it holds back the oldest xmin), so dead tuples pile up, tables bloat and queries on ${database} read more and slow down.${vacuumSays}`;
};
