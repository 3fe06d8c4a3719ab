import type { FindingDraft } from '../domain/finding.ts';
import type { TranscriptEvent } from '../domain/transcript.ts';
import { withoutOmissionMarkers } from '../context/index.ts';
import { getDependenciesContract } from '../tools/contracts/index.ts';
import { toolResults } from './conversation.ts';

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

/**
 * Checks a draft finding against the evidence before it is written: every cited ref exists, an
 * incident cites evidence, the root cause and the remediation targets are services the tools saw,
 * and the root cause's onset does not come after the symptoms it is said to cause.
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
