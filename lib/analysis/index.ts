export { detectOnset, detectTransientSpike } from './onset.ts';
export type { Direction, Onset, OnsetOptions, Point, TransientSpike } from './onset.ts';
export { mineTemplates, normalizedLevel, severityOf, templateOf } from './log-templates.ts';
export type { LogLine, LogTemplate } from './log-templates.ts';
export { correlateChanges } from './change-correlation.ts';
export type { ChangeCorrelationOptions, ChangeEvent, CorrelatedChange } from './change-correlation.ts';
export { rankRootCandidates } from './propagation.ts';
export type { PropagationOptions, RankedCandidate, ServiceAnomaly } from './propagation.ts';
