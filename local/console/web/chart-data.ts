import { itemsOf, text, toolResultsOf } from './evidence.ts';
import type { AlarmView, InvestigationView, TranscriptEvent } from './types.ts';

/** One metric series ready for the chart, with what is marked on it. Times are epoch seconds. */
export interface ChartData {
  title: string;
  unit: string | null;
  times: number[];
  values: number[];
  threshold: number | null;
  /** When the alarm changed state. */
  onset: number | null;
  changes: { at: number; label: string; seq: number }[];
  /** Where the points come from, in words, and the transcript event when there is one. */
  source: string;
  seq: number | null;
}

interface Series {
  service: string;
  name: string;
  unit: string | null;
  points: [number, number][];
}

const seconds = (iso: string): number | null => {
  const millis = Date.parse(iso);
  return Number.isNaN(millis) ? null : millis / 1000;
};

const pointsOf = (raw: unknown): [number, number][] =>
  (Array.isArray(raw) ? raw : [])
    .flatMap((point): [number, number][] => {
      if (!Array.isArray(point) || typeof point[0] !== 'string' || typeof point[1] !== 'number') return [];
      const at = seconds(point[0]);
      return at === null ? [] : [[at, point[1]]];
    })
    .sort(([a], [b]) => a - b);

/**
 * The alarm's metric as the investigation read it (get_metrics), else the datapoints the alarm
 * itself evaluated; without an alarm, the first series read for the investigation's service.
 * Null when the transcript holds no metric to show.
 */
export const chartData = (investigation: Pick<InvestigationView, 'service'>, alarm: AlarmView | null, events: readonly TranscriptEvent[]): ChartData | null => {
  const results = toolResultsOf(events);
  const read = itemsOf(results, 'get_metrics', 'series').map(({ item, from }) => ({
    series: { service: text(item.service) ?? '', name: text(item.name) ?? '', unit: text(item.unit) ?? null, points: pointsOf(item.points) } satisfies Series,
    from,
  }));
  const wanted = alarm?.metric?.name ?? alarm?.label ?? null;
  const candidates = read.filter(({ series }) => series.points.length > 1 && (wanted === null ? series.service === investigation.service : series.name === wanted));
  // The same metric may be read more than once; the longest reading shows the most.
  const best = candidates.sort((a, b) => Number(b.series.service === investigation.service) - Number(a.series.service === investigation.service) || b.series.points.length - a.series.points.length)[0];
  const evaluated = alarm ? pointsOf(alarm.evaluatedPoints) : [];
  const points = best?.series.points ?? evaluated;
  if (points.length === 0) return null;
  const first = points[0]![0];
  const last = points.at(-1)![0];
  const onset = alarm ? seconds(alarm.onsetAt) : null;
  const changes = itemsOf(results, 'list_changes', 'changes')
    .flatMap(({ item, from }) => {
      const at = seconds(text(item.timestamp) ?? '');
      return at === null || at < first || at > last ? [] : [{ at, label: `${text(item.service) ?? 'unknown service'}: ${text(item.summary) ?? text(item.kind) ?? 'change'}`, seq: from.seq }];
    })
    .filter((change, index, all) => all.findIndex((other) => other.at === change.at && other.label === change.label) === index)
    .sort((a, b) => a.at - b.at);
  return {
    title: best ? `${best.series.name} (${best.series.service})` : (alarm?.label ?? alarm?.name ?? 'alarm datapoints'),
    unit: best?.series.unit ?? null,
    times: points.map(([at]) => at),
    values: points.map(([, value]) => value),
    threshold: alarm?.threshold ?? null,
    // Marked only inside the plotted window; the timeline always has it.
    onset: onset !== null && onset >= first && onset <= last ? onset : null,
    changes,
    source: best ? `get_metrics result ${best.from.ref}` : 'the datapoints the alarm evaluated when it changed state',
    seq: best?.from.seq ?? null,
  };
};

/** The first point at or past the threshold in the alarm's direction; null when none is. */
export const firstCrossing = (data: ChartData, comparison: string | null): { at: number; value: number } | null => {
  if (data.threshold === null) return null;
  const threshold = data.threshold;
  const below = comparison?.startsWith('less') === true;
  const inclusive = comparison?.includes('or equal') !== false;
  const index = data.values.findIndex((value) => (below ? (inclusive ? value <= threshold : value < threshold) : inclusive ? value >= threshold : value > threshold));
  return index === -1 ? null : { at: data.times[index]!, value: data.values[index]! };
};
