import type { EvidenceBoard } from './evidence-board.ts';
import { OK_HELD_MS, windowOf } from './signals.ts';

/**
 * Everything that alerted and must be accounted for before anyone may say "no incident": an alarm
 * in ALARM, an open page, a person reporting a symptom. A scheduled sweep, or a question that only
 * asks whether something is fine, alerts nothing by itself.
 */
export interface Alert {
  source: 'alarm' | 'page' | 'report';
  /** How the report names it. */
  name: string;
  /** The service it is about, when known. */
  service?: string;
  /** A person's own words, for a report. */
  said?: string;
  /** Epoch ms when it fired; for a report, the time the person asks about since. */
  since?: number;
  /** Epoch ms when an alarm that fired went back to OK: only a known time, after it fired when that is known. */
  recoveredAt?: number;
  /** The tool result that shows it (the alarm listing); the trigger itself is no tool result. */
  ref?: string;
}

const triggerAlarm = /CloudWatch alarm "([^"]+)" (?:changed to|is in|is) (ALARM|OK|INSUFFICIENT_DATA)(?: from \w+)?(?: at (\S+?))?(?:[.\s]|$)/;

/** The alarm whose state change started the investigation, as the brief names it; undefined when no alarm did. */
export const triggerAlarmName = (brief: string): string | undefined => triggerAlarm.exec(brief)?.[1];

const page = /PagerDuty event incident\.(\w+) at (\S+?)\.(?:\s|$)/;
const pageTitle = /^Incident: (.+)$/m;
const pageStatus = /^Status: (\w+)$/m;
const question = /A teammate asks: "([\s\S]*)"/;
const askedSince = /They are asking about the time since (\S+?)\.(?:\s|$)/;

/** Page events that leave the incident open. */
const openPage = new Set(['triggered', 'acknowledged', 'reopened', 'escalated', 'priority_updated', 'annotated', 'delegated', 'reassigned', 'unacknowledged']);

/** Outcomes that did not happen, failures, wrong values, slowness: what people report when something is broken. */
const symptomWords = [
  /\b(can ?not|can't|cannot|unable to|could not|couldn't|won't|doesn't|does not|don't|didn't|did not|has not|hasn't|have not|haven't|isn't|aren't|weren't|wasn't|not (getting|receiving|arriving|loading|working|showing|coming))\b/i,
  /\bnever (got|get|gets|arrived|arrive|received|receive|came|come|showed|loaded)\b/i,
  /\b(fail(s|ing|ed|ures?)?|errors?|broken|down|outage|crash(es|ing|ed)?|tim(ing|ed|es) out|timeouts?|rejected|denied|refused|unavailable|stuck|hang(s|ing)?|missing|lost)\b/i,
  /\b(twice|duplicated?|duplicates|double[ds]?|wrong|incorrect|inconsistent|mismatch(es|ed)?|(higher|lower|more|less|bigger|smaller) than)\b/i,
  // An amount said to sit apart from what it should equal ("€19k below the bank statement"), or figures said to be off.
  /[\d$€£][\d.,]*\s?[kKmMbB%]?\s(above|below|short of|off from)\b|\b(are|is|looks?|seems?|were|was) off\b/i,
  // Data out of date, or one thing shown in place of another ("yesterday's numbers", "the June 1 totals instead of June 2").
  /\b(stale|out of date|outdated|yesterday's (numbers|figures|data|totals)|instead of|problems?)\b/i,
  /\b(slow(er|ly)?|sluggish|lagging|delayed)\b/i,
  // A measure said to stand out ("why was CPU so high last night?") is a symptom to account for, even when it turns out usual.
  /\b(so|too|very|unusually|really|that|this) (high|low)\b|\bspik(e|es|ed|ing)\b/i,
  // A measure said to keep moving one way ("why is the storage dropping?", "disk filling up", "memory keeps climbing").
  /\b(dropping|falling|shrinking|filling( up)?|running out|climbing|creeping( up)?|keeps? (rising|going up|going down))\b/i,
];

/** A question that presupposes the symptom ("why are exports failing?", "can you find out why…"), unlike one that asks whether it exists ("is X slow?"). */
const presupposes = /^\s*((can|could|would) you (please )?(find out|tell (me|us)|check|explain|figure out|look into|see) )?(why|how come|what('s| is) (going on|wrong|happening|broken)|what happened)\b/i;

/**
 * Whether a person's message reports a symptom: a statement of one, or a why-question about one.
 * Yes/no questions ("is anything wrong?", "do we need to roll back?") only ask, so their words
 * are not read as a report.
 */
export const reportsSymptom = (text: string): boolean => {
  const sentences = text.match(/[^.?!]+[.?!]*/g) ?? [];
  return sentences.some((sentence) => {
    const asked = sentence.trim().endsWith('?');
    if (asked && !presupposes.test(sentence)) return false;
    return symptomWords.some((pattern) => pattern.test(sentence));
  });
};

const timeOf = (text: string | undefined): number | undefined => {
  const time = text === undefined ? Number.NaN : Date.parse(text);
  return Number.isFinite(time) ? time : undefined;
};

/**
 * A page raised by a CloudWatch alarm names it in its title (`ALARM: "name" in …`). When the listing
 * shows that alarm back to OK since after the page, and staying OK for a while since, the page's
 * breach is over too: the alarm it relays recovered. An OK of minutes may yet flap back.
 */
const relayedRecovery = (board: EvidenceBoard, title: string | undefined, pagedAt: number | undefined): { recoveredAt?: number; ref?: string } => {
  const relayed = title === undefined ? undefined : board.alarms.find((alarm) => title.includes(`"${alarm.name}"`));
  const okSince = relayed?.state === 'OK' ? timeOf(relayed.since) : undefined;
  const end = windowOf(board)?.end;
  if (!relayed || okSince === undefined || pagedAt === undefined || end === undefined) return {};
  return okSince > pagedAt && end - okSince >= OK_HELD_MS ? { recoveredAt: okSince, ref: relayed.ref } : {};
};

/** Alarms in ALARM, and the trigger: the alarm that fired, the page that is open, the symptom reported. */
export const alertsOf = (board: EvidenceBoard, symptom: string | undefined): Alert[] => {
  const alerts: Alert[] = board.alarms
    .filter((alarm) => alarm.state === 'ALARM')
    .map((alarm) => ({ source: 'alarm' as const, name: `alarm ${alarm.name}`, service: alarm.service, since: timeOf(alarm.since), ref: alarm.ref }));
  const fired = triggerAlarm.exec(board.brief);
  if (fired && fired[2] === 'ALARM') {
    const listed = board.alarms.find((alarm) => alarm.name === fired[1]);
    if (!listed) alerts.push({ source: 'alarm', name: `alarm ${fired[1]}`, service: symptom, since: timeOf(fired[3]) });
    else if (listed.state !== 'ALARM') {
      const firedAt = timeOf(fired[3]);
      const okSince = listed.state === 'OK' ? timeOf(listed.since) : undefined;
      // An OK listed from before the ALARM is the state the alarm left, not a recovery; an OK of unknown time proves none.
      const recovered = okSince !== undefined && (firedAt === undefined || okSince > firedAt);
      alerts.push({
        source: 'alarm',
        name: `alarm ${listed.name}`,
        service: listed.service,
        since: firedAt,
        ...(recovered ? { recoveredAt: okSince } : {}),
        ref: listed.ref,
      });
    }
  }
  const paged = page.exec(board.brief);
  const status = pageStatus.exec(board.brief)?.[1];
  if (paged && openPage.has(paged[1]!) && status !== 'resolved') {
    const title = pageTitle.exec(board.brief)?.[1];
    const since = timeOf(paged[2]);
    alerts.push({ source: 'page', name: `PagerDuty incident "${title ?? paged[1]}"`, service: symptom, since, ...relayedRecovery(board, title, since) });
  }
  const asked = question.exec(board.brief)?.[1];
  if (asked !== undefined && reportsSymptom(asked)) alerts.push({ source: 'report', name: `the report "${asked}"`, service: symptom, said: asked, since: timeOf(askedSince.exec(board.brief)?.[1]) });
  return alerts;
};
