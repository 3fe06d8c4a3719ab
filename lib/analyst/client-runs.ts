import { median } from '../analysis/robust-statistics.ts';
import { severityOf } from '../analysis/log-templates.ts';
import type { EvidenceBoard } from './evidence-board.ts';
import { meaningOf } from './metric-semantics.ts';
import { iso } from './signals.ts';
import { quoteMessage } from '../text/quote.ts';

/** A run's own account of its start and its end: a batch job, a report, an import logs both. */
const runStarts = /\b(started|starting|begins|began|beginning)\b/i;
const runEnds = /\b(completed?|finished|done|ended)\b/i;
/** How far either side of a run's start or end the load is read. */
const SIDE_MS = 10 * 60_000;
/** The load at least doubles when a run starts and at least halves when it ends. */
const STEP = 2;
/** A start and an end, or two starts: one step alone may be chance. */
const FEWEST_EDGES = 2;
const FEWEST_POINTS_A_SIDE = 3;

export interface RunLoad {
  client: string;
  resource: string;
  /** The resource's measure of its load. */
  measure: string;
  starts: number[];
  ends: number[];
  /** The line that started the first run: what the run does. */
  startLine: string;
}

interface Edge {
  at: number;
  rises: boolean;
}

/** Whether the load steps the way the edge says: up at a start, down at an end. Undefined when too few readings either side. */
const stepsWith = (points: readonly (readonly [number, number])[], edge: Edge): boolean | undefined => {
  const before = points.filter(([at]) => at < edge.at && edge.at - at <= SIDE_MS).map(([, value]) => value);
  // The reading that holds the edge mixes both sides: the load is read from the next one on.
  const after = points.filter(([at]) => at > edge.at + 60_000 && at - edge.at <= SIDE_MS).map(([, value]) => value);
  if (before.length < FEWEST_POINTS_A_SIDE || after.length < FEWEST_POINTS_A_SIDE) return undefined;
  const [was, is] = [median(before), median(after)];
  return edge.rises ? is >= STEP * Math.max(was, Number.MIN_VALUE) : is * STEP <= was;
};

/**
 * The client whose runs are a shared resource's load: the resource's measure of its demand steps up
 * when each run of the client starts and down when each ends, as the client's own log dates them.
 * Every dated start and end must match a step, and there must be at least two; a client whose log
 * says "started" for every request, or whose runs the load does not follow, is not it. One such
 * client only: two leave it open.
 */
export const loadFollowsRuns = (board: EvidenceBoard, resource: string, clients: readonly string[]): RunLoad | undefined => {
  const loads = board.series.filter((series) => series.service === resource && meaningOf(series.name) === 'demand');
  const found = clients.flatMap((client) => {
    const lines = board.logs.filter((line) => line.service === client && severityOf(line.level) < severityOf('WARN'));
    const startLines = lines.filter((line) => runStarts.test(line.message));
    const edges: Edge[] = [
      ...startLines.map((line) => ({ at: line.at, rises: true })),
      ...lines.filter((line) => runEnds.test(line.message) && !runStarts.test(line.message)).map((line) => ({ at: line.at, rises: false })),
    ];
    if (edges.length < FEWEST_EDGES) return [];
    return loads.flatMap((series) => {
      const points = series.points.map(([timestamp, value]) => [Date.parse(timestamp), value] as const);
      const read = edges.map((edge) => stepsWith(points, edge));
      const judged = read.filter((steps) => steps !== undefined);
      if (judged.length < FEWEST_EDGES || judged.some((steps) => !steps)) return [];
      const at = (rises: boolean) => edges.filter((edge, index) => edge.rises === rises && read[index] === true).map((edge) => edge.at).sort((a, b) => a - b);
      return [{ client, resource, measure: series.name, starts: at(true), ends: at(false), startLine: startLines[0]!.message }];
    });
  });
  return new Set(found.map((item) => item.client)).size === 1 ? found[0] : undefined;
};

const times = (at: readonly number[]): string => at.map((time) => iso(time).slice(11, 16)).join(', ');

export const runLoadWords = (load: RunLoad): string =>
  [
    `${load.client}'s runs are the load on ${load.resource}: its load (${load.measure.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase()}) steps up when a run starts (${times(load.starts)} UTC)`,
    load.ends.length > 0 ? ` and back down when it ends (${times(load.ends)} UTC)` : '',
    `, so each run takes the capacity its other clients need. A run begins: "${quoteMessage(load.startLine)}".`,
  ].join('');
