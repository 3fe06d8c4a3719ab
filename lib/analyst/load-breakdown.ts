import { median } from '../analysis/robust-statistics.ts';
import { clientsOfUser } from './database-user.ts';
import type { EvidenceBoard, Series } from './evidence-board.ts';
import { changeText } from './change-text.ts';
import { timedPoints } from './readings.ts';
import { detectOnset } from '../analysis/onset.ts';

/**
 * A database's own breakdown of its load (Performance Insights' load grouped by user, by statement
 * or by application): the part that grew far more than every other is the new load, and the parts
 * that rose beside it only wait behind it (their sessions take longer, so they count for more). A
 * part absent from the breakdown before, while the others were read, is load that arrived from
 * nothing. Who runs it: the client its user stands for (database-user.ts), the client whose logs or
 * changes carry the tag a statement's comment gives (`/* job:cohort-rollup *\/`), or the application
 * named outright.
 */

/** The dimensions a load breakdown is grouped by, and what each part says of who runs it. */
const breakdownKeys = { user: 'db.user.name', statement: ['db.sql_tokenized.statement', 'db.sql.statement'], application: 'db.application.name' } as const;

/** The part of the load grown this many times more than any other is the load; the rest wait behind it. */
const DOMINANT_FACTOR = 2;

interface Part {
  series: Series;
  /** How much it grew: its level since the turn less its level before (nothing, when it was absent). */
  growth: number;
  since: number;
}

type Group = keyof typeof breakdownKeys;

const groupOf = (series: Series): Group | undefined => {
  const keys = Object.keys(series.dimensions ?? {});
  if (keys.includes(breakdownKeys.user)) return 'user';
  if (breakdownKeys.statement.some((key) => keys.includes(key))) return 'statement';
  return keys.includes(breakdownKeys.application) ? 'application' : undefined;
};

/** How each part of one breakdown grew over the time the breakdown was read. */
const partsOf = (group: readonly Series[]): Part[] => {
  const read = group.map((series) => ({ series, points: timedPoints(series.points) }));
  const readFrom = Math.min(...read.flatMap(({ points }) => points.slice(0, 1).map((point) => point.t)));
  return read.flatMap(({ series, points }) => {
    if (points.length === 0) return [];
    // Absent while another part was read for at least two of its periods: it came from nothing.
    const spacing = points.length > 1 ? points[1]!.t - points[0]!.t : Number.POSITIVE_INFINITY;
    if (points[0]!.t - readFrom >= 2 * spacing) return [{ series, growth: median(points.map((point) => point.v)), since: points[0]!.t }];
    const onset = detectOnset(points);
    return onset?.direction === 'up' ? [{ series, growth: onset.level - onset.baseline, since: onset.at }] : [];
  });
};

/** The statement's own tag, from the comment a client puts in front of its query (`/* rpt:finance/margin *\/` → `finance/margin`). */
const statementTag = (statement: string): string | undefined => /\/\*\s*(?:[\w-]+:)?\s*([^*\s][^*]*?)\s*\*\//.exec(statement)?.[1];

const clientsOfPart = (board: EvidenceBoard, group: Group, part: Series, clients: readonly string[]): string[] => {
  const dimensions = part.dimensions ?? {};
  if (group === 'user') return clientsOfUser(board, dimensions[breakdownKeys.user]!, clients);
  if (group === 'application') return clients.filter((client) => client === dimensions[breakdownKeys.application]);
  const tag = statementTag(breakdownKeys.statement.map((key) => dimensions[key]).find((value) => value !== undefined) ?? '');
  if (!tag) return [];
  return clients.filter(
    (client) => board.logs.some((line) => line.service === client && line.message.includes(tag)) || board.changes.some((change) => change.service === client && changeText(change).includes(tag)),
  );
};

/** The one client the database's breakdown of its load names as the part that grew far beyond the rest, and since when. */
export const clientOfLoadBreakdown = (board: EvidenceBoard, resource: string, clients: readonly string[]): { service: string; since: number } | undefined => {
  const groups = new Map<Group, Series[]>();
  for (const series of board.series.filter((candidate) => candidate.service === resource)) {
    const group = groupOf(series);
    if (group) groups.set(group, [...(groups.get(group) ?? []), series]);
  }
  const named = [...groups].flatMap(([group, members]) => {
    const parts = partsOf(members).sort((a, b) => b.growth - a.growth);
    const [top, next] = parts;
    if (!top || top.growth <= 0 || (next && top.growth < DOMINANT_FACTOR * next.growth)) return [];
    return clientsOfPart(board, group, top.series, clients).map((service) => ({ service, since: top.since }));
  });
  const services = new Set(named.map((item) => item.service));
  if (services.size !== 1) return undefined;
  return { service: named[0]!.service, since: Math.min(...named.map((item) => item.since)) };
};
