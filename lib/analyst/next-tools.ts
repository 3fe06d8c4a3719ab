import { severityOf } from '../analysis/log-templates.ts';
import { MIN_ONSET_POINTS } from '../analysis/onset.ts';
import type { ToolSpec } from '../model/port.ts';
import { triggerAlarmName } from './alerts.ts';
import type { Diagnosis } from './diagnose.ts';
import { callFingerprint } from '../tools/call-fingerprint.ts';
import { surveyCalls } from '../tools/contracts/survey.ts';
import { reportNames } from './measure-words.ts';
import { backendsTimedOutOn } from './integration-timeout.ts';
import { datedByMeasure } from './open-transaction.ts';
import { getMetricsContract, listChangesContract, queryLogsContract, searchRunbooksContract } from '../tools/contracts/index.ts';
import { MAX_SINCE_MINUTES } from '../tools/contracts/shared-inputs.ts';
import type { EvidenceBoard } from './evidence-board.ts';
import { repeatedFailedItems, upstreamWriters } from './bad-data-source.ts';
import { isRefusedCapacity, isSharedCapacity, sessionsToIdentifyAt, sharedCapacityOf } from './load-source.ts';
import { couldBreak } from './explaining-change.ts';
import { labelsAt } from './mechanism.ts';
import { callersOf, dataSourcesOf, dependenciesOf } from './service-map.ts';
import { windowOf, type Signal } from './signals.ts';


const ERROR = severityOf('ERROR');

/**
 * Planned work (a maintenance window, a test) is often announced days before it happens, and a
 * lowered ceiling waits for the next peak, which may come weekly: a week and a day of changes reaches
 * back past the same hour a week before.
 */
const ANNOUNCEMENT_LOOKBACK_MINUTES = 8 * 24 * 60;

/** Earlier days compared with an alarm's window: a daily job shows a day before, a weekly one a week before. */
const COMPARED_DAYS = 7;

/** How far either side of a suspect's troubled stretch the close look at its logs reaches. */
const ZOOM_MS = 45 * 60_000;

export interface PlannedCall {
  name: string;
  arguments: Record<string, unknown>;
}

/**
 * How far back the analyst looks, in minutes: for an alert, long enough to see the baseline before
 * it fired; for a question or a sweep, which may be about yesterday, two days.
 */
const lookbackMinutes = (brief: string): number => (isAlert(brief) ? 240 : 48 * 60);

/** A brief from an alarm or a page names what fired; a sweep or a question leaves the whole system to look at. */
const isAlert = (brief: string): boolean => /CloudWatch alarm "|PagerDuty event/.test(brief);

/** The metrics an alarm trigger watches, from the brief's "Metrics:" lines ("- m1: AWS/DynamoDB WriteThrottleEvents [...]"); a metric math line ("- e1: expression 100 * m1 / m2") names none of its own. */
const alarmedMetrics = (brief: string): string[] => [...brief.matchAll(/^- \w+: (?!expression )\S+ ([^\s[,]+)/gm)].map((match) => match[1]!).filter((name) => name !== '?');

/**
 * An alert nothing explains yet may be a recurring one: the same window on earlier days tells a
 * usual rise from a new one. For the alarm that fired, the metric it watches; for a page or a
 * reported symptom, what rose at its service, else whatever it publishes. Other alarms are context,
 * not what paged.
 */
const earlierDaysCalls = (board: EvidenceBoard, diagnosis: Diagnosis, lookback: number): PlannedCall[] => {
  const fired = triggerAlarmName(board.brief);
  const metrics = alarmedMetrics(board.brief);
  // An incident made of metric shifts alone, with nothing logged at ERROR where they shift, may be a schedule's usual shape (a morning
  // batch that raises concurrency and latency every day): the same window on earlier days tells.
  const shifted = [...new Set(diagnosis.unexplainedHarm.map((signal) => signal.service))];
  const shiftsOnly =
    diagnosis.unexplainedHarm.every((signal) => signal.kind === 'metric') && !board.logs.some((line) => shifted.includes(line.service) && severityOf(line.level) >= ERROR);
  const alerted = new Set(diagnosis.unexplainedAlerts.map((alert) => alert.service));
  // What rose at a service, each measure on its own: a whole service's week can be too long to read at once.
  const comparedAt = (service: string): PlannedCall[] => {
    const base = { service, sinceMinutes: lookback, compareDaysBefore: COMPARED_DAYS };
    const rose = [...new Set(diagnosis.unexplainedHarm.filter((signal) => signal.service === service).flatMap((signal) => metricNameOf(board, signal) ?? []))];
    return rose.length > 0 ? rose.map((name) => ({ name: getMetricsContract.name, arguments: { ...base, name } })) : [{ name: getMetricsContract.name, arguments: base }];
  };
  const harmCalls = (shiftsOnly ? shifted : []).filter((service) => !alerted.has(service)).flatMap(comparedAt);
  return [...harmCalls, ...diagnosis.unexplainedAlerts.flatMap((alert): PlannedCall[] => {
    if (!alert.service) return [];
    const base = { service: alert.service, sinceMinutes: lookback, compareDaysBefore: COMPARED_DAYS };
    if (alert.source === 'alarm' && fired !== undefined && alert.name === `alarm ${fired}` && metrics.length > 0) {
      return metrics.map((name) => ({ name: getMetricsContract.name, arguments: { ...base, name } }));
    }
    // A report that names a measure ("sign-ups look way down") is about that measure, read even where a capped result left it out.
    const service = alert.service;
    const known = [...board.series.filter((series) => series.service === service).map((series) => series.name), ...[...board.omittedSeries].filter((name) => name.startsWith(`${service} `)).map((name) => name.slice(service.length + 1))];
    const named = [...new Set(known)].filter((name) => alert.said !== undefined && reportNames(alert.said, name));
    if (named.length > 0) return named.map((name) => ({ name: getMetricsContract.name, arguments: { ...base, name } }));
    return alert.source === 'alarm' ? [] : comparedAt(service);
  })];
};

/** The metric a metric signal reads: the series at its service, under its evidence ref, whose name its text starts with. */
const metricNameOf = (board: EvidenceBoard, signal: Signal): string | undefined =>
  signal.kind === 'metric' ? board.series.find((series) => series.service === signal.service && series.ref === signal.ref && signal.text.startsWith(series.name))?.name : undefined;

/** A change's clean run is read from three days before it: metrics are often kept only for busy hours, and a day of them must show the failures absent. */
const CLEAN_RUN_LEAD_MS = 3 * 24 * 60 * 60_000;

/**
 * A root with no change to explain it may have been broken by an older change to it, from before the
 * metrics read so far begin: its metrics from a day before that change show whether its failures
 * began after it (first-failure.ts). Read back no further than the tools allow.
 */
const beforeRootChangeCalls = (board: EvidenceBoard, diagnosis: Diagnosis): PlannedCall[] => {
  const root = diagnosis.root;
  if (!diagnosis.incident || !root || diagnosis.suspectChange) return [];
  const times = board.series.filter((series) => series.service === root).flatMap((series) => series.points.map(([timestamp]) => Date.parse(timestamp)));
  const end = windowOf(board)?.end;
  if (times.length === 0 || end === undefined) return [];
  const readFrom = Math.min(...times);
  const older = board.changes.filter((change) => change.service === root && couldBreak(change) && change.at < readFrom);
  if (older.length === 0) return [];
  const from = Math.min(...older.map((change) => change.at)) - CLEAN_RUN_LEAD_MS;
  const sinceMinutes = Math.min(MAX_SINCE_MINUTES, Math.ceil((end - from) / 60_000));
  // What is still wrong at the root is read by name too: a capped reading of all its metrics over that long may leave it out.
  const troubled = [...new Set(diagnosis.rootSignals.filter((signal) => signal.service === root && signal.ongoing).flatMap((signal) => metricNameOf(board, signal) ?? []))];
  return [{ name: getMetricsContract.name, arguments: { service: root, sinceMinutes } }, ...troubled.map((name) => ({ name: getMetricsContract.name, arguments: { service: root, name, sinceMinutes } }))];
};

/**
 * A suspect whose metrics came back as a few coarse points over the window read (an hourly or daily
 * metric over four hours) cannot show when they changed, or a fill toward a limit: read over a week,
 * they can. The board takes the longer reading in place of the short one.
 */
const sparseMetricsCalls = (board: EvidenceBoard, suspects: readonly string[]): PlannedCall[] =>
  suspects
    .filter((service) => board.series.some((series) => series.service === service && series.points.length > 0 && series.points.length < MIN_ONSET_POINTS))
    .map((service) => ({ name: getMetricsContract.name, arguments: { service, sinceMinutes: MAX_SINCE_MINUTES } }));

/**
 * A suspect some of whose series a capped metric result left out (the survey reads every service at
 * once) has its own metrics read: asked for by service, they fit. Those a capped read of the service
 * left out too are read by name.
 */
const omittedMetricsCalls = (board: EvidenceBoard, suspects: readonly string[], lookback: number): PlannedCall[] =>
  suspects.flatMap((service) => {
    const missing = [...board.omittedSeries]
      .filter((name) => name.startsWith(`${service} `) && !board.series.some((series) => `${series.service} ${series.name}` === name))
      .map((name) => name.slice(service.length + 1));
    if (missing.length === 0) return [];
    const byService: PlannedCall = { name: getMetricsContract.name, arguments: { service, sinceMinutes: lookback } };
    if (!board.asked.has(callFingerprint(byService.name, byService.arguments))) return [byService];
    return missing.map((name) => ({ name: getMetricsContract.name, arguments: { service, name, sinceMinutes: lookback } }));
  });

/** Sessions named as lock holders or temporary-file writers looked up one by one, at most: a few are enough to say whose they are. */
const MOST_SESSIONS_LOOKED_UP = 3;
/** Enough of the code upstream of an unexplained symptom to find where its data went wrong, without reading the whole system. */
const MOST_DATA_SOURCES_READ = 4;

/**
 * A database a suspect is or uses whose log names the session taking what others need (holding the
 * locks they wait for, writing temporary files onto its storage): every line that mentions that
 * session, at any level and from any service, says whose it is (the database logs the session's
 * user and application as it connects; a client may log the session it runs on).
 */
const sessionOwnerCalls = (board: EvidenceBoard, suspects: readonly string[], lookback: number): PlannedCall[] =>
  [...new Set(suspects.flatMap((service) => [service, ...dependenciesOf(board, service)]))].flatMap((service) =>
    [...sessionsToIdentifyAt(board, service)].slice(0, MOST_SESSIONS_LOOKED_UP).map((pid) => ({ name: queryLogsContract.name, arguments: { contains: pid, minLevel: 'DEBUG', sinceMinutes: lookback, limit: 50 } })),
  );

/** How far either side of a transaction's opening its opener's lines are looked for. */
const OPENING_LOOKED_AT_MS = 60_000;

/**
 * A database whose measure of its oldest idle transaction dates when that transaction opened: every
 * line logged in that minute, from any service, says who connected or began work then.
 */
const transactionOpenerCalls = (board: EvidenceBoard, suspects: readonly string[]): PlannedCall[] =>
  [...new Set(suspects.flatMap((service) => [service, ...dependenciesOf(board, service)]))].flatMap((service) => {
    const dated = datedByMeasure(board, service);
    if (!dated) return [];
    const minute = (offset: number) => new Date(dated.openedAt + offset).toISOString();
    return [{ name: queryLogsContract.name, arguments: { minLevel: 'DEBUG', from: minute(-OPENING_LOOKED_AT_MS), to: minute(OPENING_LOOKED_AT_MS), limit: 50 } }];
  });

const MAX_RUNBOOK_QUERY = 400;
/** Alerting services whose runbooks are read for a routine that explains them. */
const MOST_ALERT_RUNBOOKS = 2;

/**
 * Text cut to at most `limit` characters at a space: a word cut in two reads as another word once
 * masked (a host's first letters are not the host), and the call would no longer be known as asked.
 */
const betweenWords = (text: string, limit: number): string => {
  if (text.length <= limit) return text;
  const cut = text.slice(0, limit + 1).replace(/\s+\S*$/, '');
  return cut.length <= limit ? cut : text.slice(0, limit);
};

/** A service's lines over the whole lookback. */
const wholeStretchOf = (service: string, lookback: number): Record<string, unknown> => ({ service, minLevel: 'INFO', sinceMinutes: lookback, limit: 200 });

/** Data gone wrong shows as a value that changed between its readings: the whole stretch tells, not the moments around a signal. */
const wholeStretchCalls = (services: readonly string[], lookback: number): PlannedCall[] =>
  services.map((service) => ({ name: queryLogsContract.name, arguments: wholeStretchOf(service, lookback) }));

/**
 * The next tool calls: first a broad survey, then the full logs of the suspects, then the
 * runbooks for the hypothesis. Nothing already asked is asked again; an empty list means done.
 */
export const nextCalls = (board: EvidenceBoard, diagnosis: Diagnosis | undefined, tools: readonly ToolSpec[]): PlannedCall[] => {
  const offered = new Set(tools.map((tool) => tool.name));
  const lookback = lookbackMinutes(board.brief);
  const fresh = (calls: PlannedCall[]) =>
    calls.filter((call) => offered.has(call.name) && !board.asked.has(callFingerprint(call.name, call.arguments)));

  const survey = fresh(surveyCalls(lookback, 'WARN').map((call) => ({ name: call.contract.name, arguments: call.arguments as Record<string, unknown> })));
  if (board.asked.size === 0) return survey;
  if (!diagnosis) return [];

  // With no clear incident yet, whatever misbehaved at all, even briefly, deserves a closer look.
  const troubled = [...diagnosis.signals]
    .filter((signal) => signal.kind !== 'alarm' && signal.kind !== 'trend' && signal.kind !== 'demand')
    .sort((a, b) => b.strength - a.strength)
    .map((signal) => signal.service);
  // A saturated shared resource is loaded by its clients: whoever generates the load has to be read too.
  // A client blamed for a shared resource's load by its timing alone has fellow clients that may have loaded it instead: they are read too.
  const chain = diagnosis.inference.verdict === 'incident' ? diagnosis.inference.chain : [];
  const blamedByTiming = diagnosis.principles.includes('early-client-is-load');
  const shared = [...new Set([diagnosis.root, ...(blamedByTiming ? chain : [])])].filter((link): link is string => link !== undefined && isSharedCapacity(board, link));
  const loaders = [...new Set(shared.flatMap((link) => callersOf(board, link)))].slice(0, 4);
  // A root refused for want of a capacity it shares may be refused because another client of that capacity took it: they are read too.
  const coClients = diagnosis.root && isRefusedCapacity(diagnosis.rootSignals) ? sharedCapacityOf(board, diagnosis.root).flatMap((resource) => callersOf(board, resource)).slice(0, 4) : [];
  // A root whose own demand surged is sent it by its callers (a client, a cache in front of it): they are read too.
  const surged = diagnosis.root !== undefined && diagnosis.signals.some((signal) => signal.service === diagnosis.root && signal.kind === 'demand' && signal.substantial);
  const senders = surged ? callersOf(board, diagnosis.root!).slice(0, 2) : [];
  // A gateway that gave up waiting for its integrations: how long its backends' runs take is read too.
  const backends = diagnosis.root ? backendsTimedOutOn(board, diagnosis.root).slice(0, 4) : [];
  // A dependency blamed only on its callers' word: whether it serves its other callers says if it is the one failing.
  const blamedOnWord = diagnosis.root !== undefined && diagnosis.rootSignals.length > 0 && diagnosis.rootSignals.every((signal) => signal.kind === 'mentioned');
  const fellowCallers = blamedOnWord ? callersOf(board, diagnosis.root!).slice(0, 4) : [];
  // Data a reader finds wrong was written upstream: the writers' own logs say who wrote the item first.
  const writers = diagnosis.root && labelsAt(diagnosis.rootSignals).includes('bad data') ? upstreamWriters(board, diagnosis.root).slice(0, 4) : [];
  // The record the reader fails on again and again is looked up in each writer's logs by its name: a busy writer's zoomed
  // lines show only the earliest and latest.
  const item = writers.length > 0 ? repeatedFailedItems(board, diagnosis.root!)[0] : undefined;
  const itemCalls = item === undefined ? [] : writers.map((service) => ({ name: queryLogsContract.name, arguments: { service, contains: item, sinceMinutes: lookback, limit: 20 } }));
  // An incident nothing explains may be data gone wrong upstream that fails nothing: the code its data comes from is read too.
  const undetermined = diagnosis.inference.verdict === 'incident' && !diagnosis.inference.determined;
  const sources = undetermined && diagnosis.symptom ? dataSourcesOf(board, diagnosis.symptom).slice(0, MOST_DATA_SOURCES_READ) : [];
  const suspects = [
    ...new Set(
      [diagnosis.root, ...diagnosis.candidates.slice(0, 2), diagnosis.symptom, ...loaders, ...coClients, ...senders, ...fellowCallers, ...backends, ...writers, ...sources, ...diagnosis.servingAlerted.slice(0, 2), ...(diagnosis.incident ? [] : troubled.slice(0, 2))].filter(
        (service): service is string => !!service,
      ),
    ),
  ];
  const knownServices = new Set((board.services ?? []).map((service) => service.name));
  // Zoom in on the stretch where each suspect went wrong: the lines around it tell the story.
  const around = (service: string): Record<string, unknown> => {
    const times = diagnosis.signals.filter((signal) => signal.service === service && signal.kind !== 'alarm' && Number.isFinite(signal.at)).map((signal) => signal.at);
    if (times.length === 0) return wholeStretchOf(service, lookback);
    return { service, minLevel: 'INFO', from: new Date(Math.min(...times) - ZOOM_MS).toISOString(), to: new Date(Math.max(...times) + ZOOM_MS).toISOString(), limit: 200 };
  };
  const deepDive = fresh(
    suspects
      .filter((service) => knownServices.size === 0 || knownServices.has(service))
      .filter(() => !board.unavailable.has(queryLogsContract.name))
      .map((service) => ({ name: queryLogsContract.name, arguments: around(service) }))
      .concat(board.unavailable.has(queryLogsContract.name) ? [] : [...wholeStretchCalls(sources, lookback), ...sessionOwnerCalls(board, suspects, lookback), ...transactionOpenerCalls(board, suspects), ...itemCalls]),
  );
  const announcements = board.unavailable.has(listChangesContract.name) ? [] : fresh([{ name: listChangesContract.name, arguments: { sinceMinutes: ANNOUNCEMENT_LOOKBACK_MINUTES } }]);
  // A backend whose runs outgrew its gateway's wait may have grown for days: its own measures are read over the week.
  const outgrown =
    diagnosis.root !== undefined && callersOf(board, diagnosis.root).some((gateway) => backendsTimedOutOn(board, gateway).includes(diagnosis.root!))
      ? [{ name: getMetricsContract.name, arguments: { service: diagnosis.root, sinceMinutes: MAX_SINCE_MINUTES } }]
      : [];
  const earlierDays = board.unavailable.has(getMetricsContract.name)
    ? []
    : fresh([...outgrown, ...earlierDaysCalls(board, diagnosis, lookback), ...beforeRootChangeCalls(board, diagnosis), ...sparseMetricsCalls(board, suspects), ...omittedMetricsCalls(board, isAlert(board.brief) ? suspects : [...knownServices], lookback)]);
  if (deepDive.length > 0 || announcements.length > 0 || earlierDays.length > 0) return [...deepDive, ...announcements, ...earlierDays];

  if (!diagnosis.incident || board.unavailable.has(searchRunbooksContract.name)) return [];
  // What the team documents about an alert nothing explains yet may say it is the routine of this hour.
  const alerted = [...new Map(diagnosis.unexplainedAlerts.filter((alert) => alert.service !== undefined).map((alert) => [alert.service!, alert])).values()].slice(0, MOST_ALERT_RUNBOOKS);
  const alertRunbooks = alerted.map((alert) => ({ name: searchRunbooksContract.name, arguments: { query: betweenWords(`${alert.name.replace(/^alarm /, '')} ${alert.service}`, MAX_RUNBOOK_QUERY), service: alert.service, limit: 3 } }));
  if (!diagnosis.root) return fresh(alertRunbooks);
  const labels = diagnosis.rootSignals.map((signal) => signal.text).join(' ');
  const query = betweenWords([diagnosis.root, diagnosis.category, diagnosis.suspectChange?.kind, labels].filter(Boolean).join(' '), MAX_RUNBOOK_QUERY);
  return fresh([{ name: searchRunbooksContract.name, arguments: { query, service: diagnosis.root, limit: 3 } }, ...alertRunbooks]);
};
