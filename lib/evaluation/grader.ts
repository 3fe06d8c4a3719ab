import type { Finding } from '../domain/finding.ts';
import type { Truth } from '../domain/scenario.ts';

export interface Grade {
  score: number;
  success: boolean;
  parts: { service: number; category: number; keywords: number; remediation: number };
  notes: string[];
}

/** The contract's success threshold. */
export const SUCCESS_SCORE = 0.8;

const same = (a: string, b: string): boolean => a.trim().toLowerCase() === b.trim().toLowerCase();

/** Truth steps matched by action and target, in order: each match must come after the previous one. */
const matchedInOrder = (truth: readonly { action: string; target: string }[], proposed: readonly { action: string; target: string }[]): number => {
  let next = 0;
  let matched = 0;
  for (const step of truth) {
    const found = proposed.findIndex((candidate, index) => index >= next && same(candidate.action, step.action) && same(candidate.target, step.target));
    if (found >= 0) {
      matched += 1;
      next = found + 1;
    }
  }
  return matched;
};

const round = (value: number): number => Math.round(value * 1000) / 1000;

/** Scores a finding against a scenario's answer key, exactly as shared/scenario-format.md defines. */
export const grade = (truth: Truth, finding: Finding): Grade => {
  const notes: string[] = [];
  if (!truth.incident) {
    const quiet = finding.remediation.every((step) => step.action === 'none' || step.action === 'escalate');
    const score = !finding.incident && quiet ? 1 : 0;
    if (finding.incident) notes.push('reported an incident where there is none');
    if (!quiet) notes.push('proposed actions on a healthy system');
    return { score, success: score >= SUCCESS_SCORE, parts: { service: score * 0.4, category: score * 0.2, keywords: score * 0.2, remediation: score * 0.2 }, notes };
  }
  if (!finding.incident) {
    notes.push('missed the incident: the finding says there is none');
    return { score: 0, success: false, parts: { service: 0, category: 0, keywords: 0, remediation: 0 }, notes };
  }
  const expected = truth.rootCause;
  const blamed = finding.rootCause.service;
  const blamedDistractor = (truth.distractors ?? []).some((distractor) => same(distractor, blamed));
  if (blamedDistractor) notes.push(`blamed the distractor ${blamed}`);
  const serviceMatches = expected === undefined || same(expected.service, blamed);
  if (!serviceMatches) notes.push(`root-cause service ${blamed}, expected ${expected!.service}`);
  const accepted = expected === undefined ? undefined : [expected.category].flat();
  const categoryMatches = accepted === undefined || accepted.includes(finding.rootCause.category);
  if (!categoryMatches) notes.push(`category ${finding.rootCause.category}, expected ${accepted!.join(' or ')}`);
  const text = `${finding.rootCause.summary}\n${finding.report}`.toLowerCase();
  const missingGroups = (expected?.keywords ?? []).filter((group) => !group.some((keyword) => text.includes(keyword.toLowerCase())));
  if (missingGroups.length > 0) notes.push(`missing keywords: ${missingGroups.map((group) => group.join('|')).join('; ')}`);
  const truthSteps = truth.remediation ?? [];
  const matched = matchedInOrder(truthSteps, finding.remediation);
  if (matched < truthSteps.length) notes.push(`remediation matched ${matched} of ${truthSteps.length} steps`);
  const parts = {
    service: !blamedDistractor && serviceMatches ? 0.4 : 0,
    category: !blamedDistractor && categoryMatches ? 0.2 : 0,
    keywords: missingGroups.length === 0 ? 0.2 : 0,
    remediation: truthSteps.length === 0 ? 0.2 : round((0.2 * matched) / truthSteps.length),
  };
  const score = round(parts.service + parts.category + parts.keywords + parts.remediation);
  return { score, success: score >= SUCCESS_SCORE, parts, notes };
};
