import { z } from 'zod';
import { thresholdStatedIn } from '../domain/alarm-threshold.ts';
import type { CloudWatchAlarmEvent, Trigger } from '../domain/trigger.ts';

/** What the console charts about the alarm that started an investigation. */
export interface AlarmView {
  name: string;
  state: string;
  /** When the alarm entered its state: the onset marked on the chart. */
  onsetAt: string;
  reason: string | null;
  /** The alarm's threshold, when it compares one metric (or one expression) with a number. */
  threshold: number | null;
  /** In the alarm's words: `greater than or equal to`, `less than`, ... */
  comparison: string | null;
  statistic: string | null;
  periodSeconds: number | null;
  /** The metric the alarm watches; null for a composite alarm or one on a metric-math expression. */
  metric: { namespace: string | null; name: string; dimensions: Record<string, string> } | null;
  /** What the alarm's returned series is called (the expression's label, else the metric's name). */
  label: string | null;
  /** The datapoints the alarm evaluated when it changed state, oldest first. */
  evaluatedPoints: [string, number][];
  /** A composite alarm's rule over other alarms. */
  rule: string | null;
}

/** CloudWatch writes reasonData as a JSON string: threshold and datapoints for a metric alarm, triggering alarms for a composite. */
const reasonData = z.object({
  threshold: z.number().optional(),
  statistic: z.string().optional(),
  period: z.number().optional(),
  evaluatedDatapoints: z.array(z.object({ timestamp: z.string(), value: z.number().optional() })).optional(),
});

/** CloudWatch's `+0000` offsets are not ISO-8601 for every parser; the page gets `Z` times. */
const isoTime = (timestamp: string): string | undefined => {
  const millis = Date.parse(timestamp.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
  return Number.isNaN(millis) ? undefined : new Date(millis).toISOString();
};

const parseReasonData = (raw: string | undefined): z.infer<typeof reasonData> => {
  if (raw === undefined) return {};
  try {
    const parsed = reasonData.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
};

const comparisonIn = (reason: string | undefined): string | null => /\b((?:greater|less) than(?: or equal to)?) the threshold/.exec(reason ?? '')?.[1] ?? null;

const alarmViewOf = (event: CloudWatchAlarmEvent): AlarmView => {
  const { detail } = event;
  const data = parseReasonData(detail.state.reasonData);
  const returned = detail.configuration?.metrics?.find((metric) => metric.returnData !== false) ?? detail.configuration?.metrics?.[0];
  const stat = returned?.metricStat;
  const points = (data.evaluatedDatapoints ?? [])
    .flatMap((point): [string, number][] => {
      const at = isoTime(point.timestamp);
      return at === undefined || point.value === undefined ? [] : [[at, point.value]];
    })
    .sort(([a], [b]) => a.localeCompare(b));
  return {
    name: detail.alarmName,
    state: detail.state.value,
    onsetAt: isoTime(detail.state.timestamp ?? event.time) ?? event.time,
    reason: detail.state.reason ?? null,
    threshold: data.threshold ?? thresholdStatedIn(detail.state.reason) ?? null,
    comparison: comparisonIn(detail.state.reason),
    statistic: stat?.stat ?? data.statistic ?? null,
    periodSeconds: stat?.period ?? data.period ?? null,
    metric: stat?.metric.name ? { namespace: stat.metric.namespace ?? null, name: stat.metric.name, dimensions: stat.metric.dimensions ?? {} } : null,
    label: returned?.label ?? stat?.metric.name ?? null,
    evaluatedPoints: points,
    rule: detail.configuration?.alarmRule ?? null,
  };
};

/** The alarm behind an investigation, or null when something else (a page, a question, a sweep) started it. */
export const alarmView = (trigger: Trigger): AlarmView | null => ('cloudwatchAlarm' in trigger ? alarmViewOf(trigger.cloudwatchAlarm) : null);
