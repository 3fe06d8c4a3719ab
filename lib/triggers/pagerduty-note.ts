import type { Finding } from '../domain/finding.ts';

/** Every note sre-agent posts carries this, so the webhook it causes is recognised and ignored. */
export const SRE_AGENT_NOTE_MARKER = '[sre-agent]';

/** PagerDuty notes hold at most 25,000 characters. */
const MAX_NOTE_CHARS = 25_000;

/** The incident note: the finding's verdict and summary, a link to the full investigation, then the report. */
export const pagerDutyNote = (finding: Finding, link: string | undefined): string => {
  const verdict = finding.incident
    ? `root cause ${finding.rootCause.service} (${finding.rootCause.category}), confidence ${Math.round(finding.confidence * 100)}%`
    : 'no incident found';
  const text = [
    `${SRE_AGENT_NOTE_MARKER} Investigation finished: ${verdict}.`,
    finding.rootCause.summary,
    link && `Full investigation: ${link}`,
    '',
    finding.report,
  ]
    .filter((line) => line !== undefined)
    .join('\n');
  return text.length > MAX_NOTE_CHARS ? `${text.slice(0, MAX_NOTE_CHARS - 20)}\n…(truncated)` : text;
};
