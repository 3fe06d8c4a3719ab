import type { FindingDraft } from '../domain/finding.ts';
import type { TranscriptEvent } from '../domain/transcript.ts';
import { withoutOmissionMarkers } from '../context/index.ts';
import { severityOf } from '../analysis/log-templates.ts';
import { getDependenciesContract, listAlarmsContract, queryLogsContract } from '../tools/contracts/index.ts';
import { toolResults } from './conversation.ts';
import { quoteMessage } from '../text/quote.ts';

export interface Review {
  passed: boolean;
  problems: string[];
}

/** Services the tools have shown to exist (the service map), when the transcript has one. */
const knownServices = (events: readonly TranscriptEvent[]): Set<string> | undefined => {
  const names = toolResults(events)
    .filter((result) => result.name === getDependenciesContract.name && result.error === undefined)
    .flatMap((result) => {
      const map = getDependenciesContract.output.safeParse(withoutOmissionMarkers(result.data));
      return map.success && map.data.available ? map.data.services.map((service) => service.name) : [];
    });
  return names.length > 0 ? new Set(names) : undefined;
};

const earliestMention = (draft: FindingDraft, service: string): number | undefined =>
  draft.timeline
    .filter((entry) => entry.event.includes(service) && !Number.isNaN(Date.parse(entry.at)))
    .map((entry) => Date.parse(entry.at))
    .sort((a, b) => a - b)[0];

/** Refs the draft cites that no tool result in the transcript carries. */
export const unknownEvidenceRefs = (draft: FindingDraft, events: readonly TranscriptEvent[]): string[] => {
  const refs = new Set(toolResults(events).map((result) => result.ref));
  return draft.evidence.map((item) => item.ref).filter((ref) => !refs.has(ref));
};

/** Alarms in ALARM in the latest alarm listing of the transcript. */
const firingAlarms = (events: readonly TranscriptEvent[]): { name: string; service: string }[] => {
  const listing = toolResults(events)
    .filter((result) => result.name === listAlarmsContract.name && result.error === undefined)
    .map((result) => listAlarmsContract.output.safeParse(withoutOmissionMarkers(result.data)))
    .filter((parsed) => parsed.success && parsed.data.available)
    .at(-1);
  return listing?.success && listing.data.available ? listing.data.alarms.filter((alarm) => alarm.state === 'ALARM') : [];
};

/** How recent, relative to the newest line of a log result, an error still counts as happening now. */
const STILL_FAILING_MS = 15 * 60_000;

/** ERROR-or-worse lines near the end of the log results the draft cites: failures still going on. */
const recentErrorsCited = (draft: FindingDraft, events: readonly TranscriptEvent[]): { ref: string; message: string }[] => {
  const cited = new Set(draft.evidence.map((item) => item.ref));
  return toolResults(events)
    .filter((result) => cited.has(result.ref) && result.name === queryLogsContract.name && result.error === undefined)
    .flatMap((result) => {
      const parsed = queryLogsContract.output.safeParse(withoutOmissionMarkers(result.data));
      if (!parsed.success || !parsed.data.available) return [];
      const lines = parsed.data.lines;
      const newest = Math.max(...lines.map((line) => Date.parse(line.timestamp)).filter(Number.isFinite));
      return lines
        .filter((line) => severityOf(line.level) >= 3 && newest - Date.parse(line.timestamp) <= STILL_FAILING_MS)
        .map((line) => ({ ref: result.ref, message: line.message }));
    });
};

/** A summary that says nothing is wrong, in so many words. */
const claimsNoErrors = /no (service )?(shows )?errors|without errors|no errors|nothing is failing|no alarm is in alarm/i;

/** Problems with a "no incident" verdict: firing alarms it does not account for, errors in its own evidence. */
const healthyVerdictProblems = (draft: FindingDraft, events: readonly TranscriptEvent[]): string[] => {
  if (draft.incident) return [];
  const problems: string[] = [];
  const text = `${draft.rootCause.summary} ${draft.evidence.map((item) => item.summary).join(' ')}`;
  const unaccounted = firingAlarms(events).filter((alarm) => !text.includes(alarm.name));
  if (unaccounted.length > 0) {
    problems.push(`says "no incident" while alarms are in ALARM without saying why each is benign: ${unaccounted.map((alarm) => `${alarm.name} (${alarm.service})`).join(', ')}`);
  }
  const errors = recentErrorsCited(draft, events);
  if (errors.length > 0) problems.push(`says "no incident" but its cited evidence ${errors[0]!.ref} shows errors still occurring: "${quoteMessage(errors[0]!.message)}"`);
  return problems;
};

/** A summary that denies what its own cited evidence shows. */
const contradictionProblems = (draft: FindingDraft, events: readonly TranscriptEvent[]): string[] => {
  if (!claimsNoErrors.test(draft.rootCause.summary)) return [];
  const errors = recentErrorsCited(draft, events);
  const firing = firingAlarms(events);
  return [
    ...(errors.length > 0 && /errors/i.test(draft.rootCause.summary) ? [`the summary says there are no errors, but cited evidence ${errors[0]!.ref} holds error lines`] : []),
    ...(firing.length > 0 && /no alarm is in alarm/i.test(draft.rootCause.summary) ? [`the summary says no alarm fires, but ${firing.map((alarm) => alarm.name).join(', ')} is in ALARM`] : []),
  ];
};

/**
 * Checks a draft finding against the evidence before it is written: every cited ref exists, an
 * incident cites evidence, the root cause and the remediation targets are services the tools saw,
 * the root cause's onset does not come after the symptoms it is said to cause, a "no incident"
 * verdict accounts for every alarm in ALARM and cites no errors still occurring, and the summary
 * does not deny what its evidence shows.
 */
export const reviewDraft = (draft: FindingDraft, events: readonly TranscriptEvent[]): Review => {
  const problems: string[] = [];
  const unknownRefs = unknownEvidenceRefs(draft, events);
  if (unknownRefs.length > 0) problems.push(`cites evidence that does not exist: ${unknownRefs.join(', ')}`);
  if (draft.incident && draft.evidence.length === 0) problems.push('claims an incident without citing any evidence');
  const services = knownServices(events);
  if (services && draft.incident && !services.has(draft.rootCause.service)) {
    problems.push(`the root-cause service ${draft.rootCause.service} is not in the service map`);
  }
  if (services) {
    const unknownTargets = draft.remediation
      .filter((step) => step.action !== 'escalate' && step.action !== 'none' && !services.has(step.target))
      .map((step) => step.target);
    if (unknownTargets.length > 0) problems.push(`remediation targets that are not in the service map: ${[...new Set(unknownTargets)].join(', ')}`);
  }
  problems.push(...healthyVerdictProblems(draft, events), ...contradictionProblems(draft, events));
  const rootOnset = earliestMention(draft, draft.rootCause.service);
  const symptomOnsets = draft.timeline
    .filter((entry) => !entry.event.includes(draft.rootCause.service) && !Number.isNaN(Date.parse(entry.at)))
    .map((entry) => Date.parse(entry.at));
  if (rootOnset !== undefined && symptomOnsets.length > 0 && rootOnset > Math.max(...symptomOnsets)) {
    problems.push(`the root cause (${draft.rootCause.service}) starts after every symptom in the timeline`);
  }
  return { passed: problems.length === 0, problems };
};

export const revisionRequest = (review: Review): string =>
  `Before this finding is written, a check of your draft against the evidence found problems:\n${review.problems.map((problem) => `- ${problem}`).join('\n')}\nRevise the finding and answer again with the JSON object only.`;
