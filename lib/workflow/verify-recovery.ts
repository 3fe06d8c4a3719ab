import { breaches, comparisonStatedIn, thresholdStatedIn, type Comparison } from '../domain/alarm-threshold.ts';
import { toMillis } from '../domain/time.ts';
import type { CloudWatchAlarmEvent, Trigger } from '../domain/trigger.ts';
import type { Toolbox } from '../tools/toolbox.ts';

export interface MetricCheck {
  name: string;
  /** The latest datapoint at or after the action, if any arrived yet. */
  latest?: { at: string; value: number };
  threshold?: number;
  /** Null when there is no datapoint since the action, or no threshold to compare it with. */
  withinThreshold: boolean | null;
}

export interface Verification {
  alarm?: string;
  state?: string;
  metric?: MetricCheck;
  recovered: boolean | null;
  summary: string;
}

/** The one metric an alarm watches, its threshold and comparison, as the state-change event gives them. */
interface AlarmMetric {
  name: string;
  namespace?: string;
  dimensions?: Record<string, string>;
  periodSeconds?: number;
  threshold?: number;
  comparison?: Comparison;
}

const thresholdOf = (state: CloudWatchAlarmEvent['detail']['state']): number | undefined => {
  try {
    const threshold = (JSON.parse(state.reasonData ?? '{}') as { threshold?: unknown }).threshold;
    if (typeof threshold === 'number') return threshold;
  } catch {
    // A reasonData that is not JSON says nothing; the reason text may.
  }
  return thresholdStatedIn(state.reason);
};

const alarmMetricOf = (event: CloudWatchAlarmEvent): AlarmMetric | undefined => {
  const metrics = event.detail.configuration?.metrics ?? [];
  // A metric-math or composite alarm has no single metric whose value the threshold applies to.
  if (metrics.length !== 1) return undefined;
  const stat = metrics[0]!.metricStat;
  if (!stat?.metric.name) return undefined;
  const comparison = comparisonStatedIn(event.detail.state.reason);
  const threshold = thresholdOf(event.detail.state);
  return {
    name: stat.metric.name,
    ...(stat.metric.namespace ? { namespace: stat.metric.namespace } : {}),
    ...(stat.metric.dimensions ? { dimensions: stat.metric.dimensions } : {}),
    ...(stat.period ? { periodSeconds: stat.period } : {}),
    ...(threshold === undefined ? {} : { threshold }),
    ...(comparison ? { comparison } : {}),
  };
};

const COMPARISON_WORDS: Record<Comparison, string> = { gt: '>', ge: '>=', lt: '<', le: '<=' };

/** Enough of the series to hold a few of the alarm's periods around the action. */
const windowMinutes = (metric: AlarmMetric): number => Math.max(5, Math.ceil(((metric.periodSeconds ?? 60) * 3) / 60));

/** Re-reads the alarm's metric (get_metrics) and compares the datapoints since the action with the alarm's threshold. */
const checkMetric = async (toolbox: Toolbox, metric: AlarmMetric, actionAt: Date): Promise<MetricCheck | string> => {
  const outcome = await toolbox.execute({ id: 'verify-metric', name: 'get_metrics', arguments: { name: metric.name, sinceMinutes: windowMinutes(metric) } }, { now: actionAt });
  if (!outcome.ok) return `re-reading metric ${metric.name} failed: ${outcome.error}`;
  const data = outcome.data as { available: boolean; series?: { name: string; namespace?: string; dimensions?: Record<string, string>; points: [string, number][] }[] };
  const sameDimensions = (dimensions: Record<string, string> | undefined) =>
    !metric.dimensions || Object.entries(metric.dimensions).every(([key, value]) => dimensions?.[key] === value);
  const series = (data.series ?? []).find(
    (candidate) => candidate.name === metric.name && (!metric.namespace || !candidate.namespace || candidate.namespace === metric.namespace) && sameDimensions(candidate.dimensions),
  );
  if (!series) return `metric ${metric.name} returned no series when re-read`;
  const since = series.points.filter(([at]) => toMillis(at) >= actionAt.getTime());
  const last = since.at(-1);
  const check: MetricCheck = { name: metric.name, ...(metric.threshold === undefined ? {} : { threshold: metric.threshold }), withinThreshold: null };
  if (!last) return check;
  const latest = { at: last[0], value: last[1] };
  const withinThreshold = metric.threshold === undefined || !metric.comparison ? null : !breaches(latest.value, metric.threshold, metric.comparison);
  return { ...check, latest, withinThreshold };
};

const describeMetric = (check: MetricCheck, comparison: Comparison | undefined): string => {
  if (!check.latest) return `metric ${check.name} has no datapoint since the action yet; re-check it after the next period`;
  const versus = check.threshold === undefined || !comparison ? '' : ` (alarm when ${COMPARISON_WORDS[comparison]} ${check.threshold})`;
  if (check.withinThreshold === null) return `metric ${check.name} reads ${check.latest.value} at ${check.latest.at}${versus}`;
  return check.withinThreshold
    ? `metric ${check.name} is back within the threshold: ${check.latest.value} at ${check.latest.at}${versus}`
    : `metric ${check.name} still breaches the threshold: ${check.latest.value} at ${check.latest.at}${versus}`;
};

/**
 * After an action: re-reads the alarm that opened the investigation and the metric it watches over
 * the window after the action, and says whether the service recovered. The metric decides when it
 * has a datapoint since the action (an alarm clears only on its next evaluation); otherwise the
 * alarm's state does. A recorded (not executed) action cannot have changed anything, and says so.
 */
export const verifyRecovery = async (toolbox: Toolbox, trigger: Trigger | undefined, executed: boolean, now: Date): Promise<Verification> => {
  if (!executed) return { recovered: null, summary: 'the action was recorded, not executed: nothing changed, so there is no recovery to verify' };
  const event = trigger && 'cloudwatchAlarm' in trigger ? trigger.cloudwatchAlarm : undefined;
  if (!event) return { recovered: null, summary: 'no alarm opened this investigation: there is no alarm to re-read' };
  const alarm = event.detail.alarmName;
  const watched = alarmMetricOf(event);
  const metricOutcome = watched && toolbox.sideEffectOf('get_metrics') !== undefined ? await checkMetric(toolbox, watched, now) : undefined;
  const metric = typeof metricOutcome === 'object' ? metricOutcome : undefined;
  const metricLine = metric ? describeMetric(metric, watched?.comparison) : metricOutcome;

  const outcome = await toolbox.execute({ id: 'verify', name: 'list_alarms', arguments: {} }, { now });
  const found = outcome.ok ? (outcome.data as { alarms?: { name: string; state: string }[] }).alarms?.find((candidate) => candidate.name === alarm) : undefined;
  const alarmLine = !outcome.ok
    ? `re-reading alarm ${alarm} failed: ${outcome.error}`
    : !found
      ? `alarm ${alarm} was not found when re-read`
      : found.state === 'OK'
        ? `alarm ${alarm} is OK again after the action`
        : `alarm ${alarm} is still ${found.state} after the action`;
  const recovered = metric?.withinThreshold ?? (found ? found.state === 'OK' : null);
  const verdict = recovered === null ? 'recovery is not confirmed yet' : recovered ? 'the service recovered' : 'the service has not recovered yet';
  return {
    alarm,
    ...(found ? { state: found.state } : {}),
    ...(metric ? { metric } : {}),
    recovered,
    summary: [alarmLine, metricLine].filter(Boolean).join('; ') + `: ${verdict}`,
  };
};
