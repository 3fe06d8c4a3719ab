import { z } from 'zod';
import { remediationAction, rootCauseCategory } from './vocabulary.ts';

export const evidenceItem = z.object({ ref: z.string(), summary: z.string() });

export const remediationStep = z.object({
  action: remediationAction,
  target: z.string(),
  detail: z.string().default(''),
  requiresApproval: z.boolean(),
});
export type RemediationStep = z.infer<typeof remediationStep>;

/** The structured result of an investigation (shared/scenario-format.md, "The finding"). */
export const finding = z.object({
  incident: z.boolean(),
  rootCause: z.object({ service: z.string(), category: rootCauseCategory, summary: z.string() }),
  confidence: z.number().min(0).max(1),
  evidence: z.array(evidenceItem),
  remediation: z.array(remediationStep),
  report: z.string(),
  /** Set when the investigation could not finish; says why. */
  incomplete: z.object({ reason: z.string() }).optional(),
  /** The check of the draft against the evidence before it was written. */
  review: z.object({ passed: z.boolean(), problems: z.array(z.string()), revised: z.boolean() }).optional(),
});
export type Finding = z.infer<typeof finding>;

/** What a model proposes as its final answer; the workflow adds approvals and the report. */
export const findingDraft = z.object({
  incident: z.boolean(),
  rootCause: z.object({ service: z.string(), category: rootCauseCategory, summary: z.string() }),
  confidence: z.number().min(0).max(1),
  evidence: z.array(evidenceItem).default([]),
  remediation: z.array(z.object({ action: remediationAction, target: z.string(), detail: z.string().default('') })).default([]),
  timeline: z.array(z.object({ at: z.string(), event: z.string() })).default([]),
  impact: z.string().default(''),
  followUps: z.array(z.string()).default([]),
});
export type FindingDraft = z.infer<typeof findingDraft>;
