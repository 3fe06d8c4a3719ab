import { firstCrossing, type ChartData } from './chart-data.ts';
import { itemsOf, payloadOf, text, toolResultsOf } from './evidence.ts';
import type { AlarmView, TranscriptEvent } from './types.ts';

/** What kind of moment an entry is; shown as words, so the timeline reads without colour. */
export type TimelineKind = 'change' | 'first error' | 'alarm onset' | 'symptom' | 'action' | 'verification' | 'finding';

export interface TimelineEntry {
  at: string;
  kind: TimelineKind;
  text: string;
  /** The transcript event it was read from; null for the alarm itself. */
  seq: number | null;
}

const ERROR_LEVELS = new Set(['ERROR', 'FATAL', 'CRITICAL', 'EMERGENCY', 'ALERT']);

const isoOf = (value: unknown): string | undefined => {
  const raw = text(value);
  return raw !== undefined && !Number.isNaN(Date.parse(raw)) ? new Date(Date.parse(raw)).toISOString() : undefined;
};

const firstLine = (message: string): string => {
  const line = message.split('\n')[0]!.trim();
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
};

/** The earliest error the logs show for each service: from the lines returned and from the error templates' first sighting. */
const firstErrors = (events: readonly TranscriptEvent[]): TimelineEntry[] => {
  const results = toolResultsOf(events);
  const earliest = new Map<string, TimelineEntry>();
  const consider = (service: string, at: string | undefined, message: string, seq: number) => {
    if (at === undefined) return;
    const known = earliest.get(service);
    if (!known || at < known.at) earliest.set(service, { at, kind: 'first error', text: `${service}: ${firstLine(message)}`, seq });
  };
  for (const { item, from } of itemsOf(results, 'query_logs', 'lines')) {
    if (ERROR_LEVELS.has((text(item.level) ?? '').toUpperCase())) consider(text(item.service) ?? 'unknown service', isoOf(item.timestamp), text(item.message) ?? '', from.seq);
  }
  for (const { item, from } of itemsOf(results, 'query_logs', 'templates')) {
    const levels = typeof item.levels === 'object' && item.levels !== null ? Object.keys(item.levels) : [];
    if (!levels.some((level) => ERROR_LEVELS.has(level.toUpperCase()))) continue;
    const services = Array.isArray(item.services) ? item.services.filter((service): service is string => typeof service === 'string') : [];
    for (const service of services) consider(service, isoOf(item.firstSeen), text(item.example) ?? text(item.template) ?? '', from.seq);
  }
  return [...earliest.values()];
};

const changes = (events: readonly TranscriptEvent[]): TimelineEntry[] => {
  const seen = new Set<string>();
  return itemsOf(toolResultsOf(events), 'list_changes', 'changes').flatMap(({ item, from }) => {
    const at = isoOf(item.timestamp);
    const line = `${text(item.service) ?? 'unknown service'}: ${text(item.summary) ?? text(item.kind) ?? 'change'}`;
    if (at === undefined || seen.has(`${at} ${line}`)) return [];
    seen.add(`${at} ${line}`);
    return [{ at, kind: 'change' as const, text: line, seq: from.seq }];
  });
};

/** Other alarms firing, and the alarm's metric crossing its threshold. */
const symptoms = (events: readonly TranscriptEvent[], alarm: AlarmView | null, chart: ChartData | null): TimelineEntry[] => {
  const seen = new Set<string>();
  const firing = itemsOf(toolResultsOf(events), 'list_alarms', 'alarms').flatMap(({ item, from }) => {
    const name = text(item.name) ?? '';
    const at = isoOf(item.since);
    if (text(item.state) !== 'ALARM' || name === alarm?.name || at === undefined || seen.has(name)) return [];
    seen.add(name);
    return [{ at, kind: 'symptom' as const, text: `alarm ${name} (${text(item.service) ?? 'unknown service'}) in ALARM`, seq: from.seq }];
  });
  const crossing = chart && alarm ? firstCrossing(chart, alarm.comparison) : null;
  const crossed =
    crossing && chart
      ? [{ at: new Date(crossing.at * 1000).toISOString(), kind: 'symptom' as const, text: `${chart.title} reaches ${crossing.value} (threshold ${chart.threshold})`, seq: chart.seq }]
      : [];
  return [...firing, ...crossed];
};

const describeAction = (event: TranscriptEvent): TimelineEntry | undefined => {
  const payload = payloadOf(event);
  const action = text(payload.action) ?? 'action';
  switch (event.type) {
    case 'approval.requested':
      return { at: event.at, kind: 'action', text: `approval requested: ${action} on ${text(payload.target) ?? 'its target'}`, seq: event.seq };
    case 'approval.decided':
      return { at: event.at, kind: 'action', text: `approval ${text(payload.decision) ?? 'decided'}${text(payload.by) ? ` by ${text(payload.by)}` : ''}`, seq: event.seq };
    case 'action.executed':
      return { at: event.at, kind: 'action', text: `${action} on ${text(payload.target) ?? 'its target'}: ${text(payload.status) ?? 'ran'}`, seq: event.seq };
    case 'action.verified': {
      const recovered = payload.recovered === true ? 'recovered' : payload.recovered === false ? 'not recovered' : 'not verifiable';
      return { at: event.at, kind: 'verification', text: `${action}: ${recovered}${text(payload.summary) ? `: ${text(payload.summary)}` : ''}`, seq: event.seq };
    }
    case 'finding':
      return { at: event.at, kind: 'finding', text: 'finding written', seq: event.seq };
    default:
      return undefined;
  }
};

/**
 * The incident in order: the changes and first errors the tools found, the alarm's onset and the
 * other symptoms, then what the investigation did (approvals, actions, their verification).
 * Evidence carries the recorded times; the actions carry the times they happened.
 */
export const timelineOf = (events: readonly TranscriptEvent[], alarm: AlarmView | null, chart: ChartData | null): TimelineEntry[] => {
  const onset: TimelineEntry[] = alarm
    ? [{ at: alarm.onsetAt, kind: 'alarm onset', text: `alarm ${alarm.name} ${alarm.state}${alarm.threshold !== null ? `: ${alarm.comparison ?? 'against'} ${alarm.threshold}` : ''}`, seq: null }]
    : [];
  const entries = [...changes(events), ...firstErrors(events), ...onset, ...symptoms(events, alarm, chart), ...events.flatMap((event) => describeAction(event) ?? [])];
  return entries.sort((a, b) => a.at.localeCompare(b.at) || (a.seq ?? 0) - (b.seq ?? 0));
};
