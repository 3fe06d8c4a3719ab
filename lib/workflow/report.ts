import type { Finding, FindingDraft, RemediationStep } from '../domain/finding.ts';

/** Actions that change nothing in production need no approval. */
const changesNothing = (action: string): boolean => action === 'none' || action === 'escalate';

export const remediationFrom = (draft: FindingDraft): RemediationStep[] =>
  draft.remediation.map((step) => ({ ...step, requiresApproval: !changesNothing(step.action) }));

/** What the report says when no action went through approval; write-finding replaces it when one did. */
export const NOTHING_DONE = 'Done: nothing. sre-agent changes nothing in production without a human approval.';

const percent = (value: number): string => `${Math.round(value * 100)}%`;

/** Renders the incident report: summary, timeline, root cause with evidence, impact, remediation, follow-ups. */
export const renderReport = (draft: FindingDraft, evidenceSummaries: ReadonlyMap<string, string>): string => {
  const remediation = remediationFrom(draft);
  const timeline = [...draft.timeline].sort((a, b) => a.at.localeCompare(b.at));
  const evidence = draft.evidence.map((item) => {
    const source = evidenceSummaries.get(item.ref);
    return `- **${item.ref}**: ${item.summary}${source ? ` _(${source})_` : ''}`;
  });
  const sections = [
    `# Incident report: ${draft.incident ? `${draft.rootCause.service} (${draft.rootCause.category})` : 'no incident'}`,
    `**Verdict:** ${draft.incident ? 'incident' : 'no incident'}. **Confidence:** ${percent(draft.confidence)}.`,
    `## Summary\n${draft.rootCause.summary}`,
    `## Timeline\n${timeline.length > 0 ? timeline.map((entry) => `- ${entry.at}: ${entry.event}`).join('\n') : '- No timeline could be established.'}`,
    `## Root cause\n- Service: **${draft.rootCause.service}**\n- Category: ${draft.rootCause.category}\n\nEvidence:\n${evidence.length > 0 ? evidence.join('\n') : '- none cited'}`,
    `## Impact\n${draft.impact || 'Not determined from the evidence.'}`,
    `## Remediation\nProposed:\n${
      remediation.length > 0
        ? remediation
            .map((step, index) => `${index + 1}. **${step.action}** ${step.target}${step.detail ? `: ${step.detail}` : ''}${step.requiresApproval ? ' _(needs human approval)_' : ''}`)
            .join('\n')
        : '- none'
    }\n\n${NOTHING_DONE}`,
    `## Follow-ups\n${draft.followUps.length > 0 ? draft.followUps.map((item) => `- ${item}`).join('\n') : '- Review this report in the post-incident review.'}`,
  ];
  return sections.join('\n\n');
};

export const findingFrom = (draft: FindingDraft, evidenceSummaries: ReadonlyMap<string, string>): Finding => ({
  incident: draft.incident,
  rootCause: draft.rootCause,
  confidence: draft.confidence,
  evidence: draft.evidence,
  remediation: remediationFrom(draft),
  report: renderReport(draft, evidenceSummaries),
});

/** What an investigation that could not finish still says: why, and what it had looked at. */
export const incompleteFinding = (reason: string, evidenceSummaries: ReadonlyMap<string, string>): Finding => {
  const draft: FindingDraft = {
    incident: true,
    rootCause: { service: 'unknown', category: 'none', summary: `Investigation incomplete: ${reason}` },
    confidence: 0,
    evidence: [...evidenceSummaries.entries()].slice(-5).map(([ref, summary]) => ({ ref, summary })),
    remediation: [{ action: 'escalate', target: 'on-call', detail: 'Investigate by hand; the agent could not reach a conclusion.' }],
    timeline: [],
    impact: '',
    followUps: ['Find out why the investigation could not finish (see the error in its transcript).'],
  };
  return { ...findingFrom(draft, evidenceSummaries), incomplete: { reason } };
};
