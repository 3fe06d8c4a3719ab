import type { Investigation } from '../domain/investigation.ts';
import type { NewTranscriptEvent, TranscriptEvent } from '../domain/transcript.ts';
import type { Trigger } from '../domain/trigger.ts';

/** Everything one workflow step writes, committed atomically or not at all. */
export interface StepCommit {
  /** The step's key, unique within an investigation (for example `call-model#2`). */
  step: string;
  /** The head as the step read it; the commit fails if another writer moved it since. */
  expectedEventCount: number;
  events: readonly NewTranscriptEvent[];
  head: Investigation;
  /** Named documents stored beside the investigation (the replay environment, the mask map, ...). */
  documents?: Readonly<Record<string, unknown>>;
  /** What the step returns to the workflow; a replay of the step returns it again. */
  outcome: unknown;
}

export interface NewInvestigation {
  investigation: Investigation;
  trigger: Trigger;
  documents?: Readonly<Record<string, unknown>>;
}

/** The store port: investigations, their append-only transcripts and step outcomes. */
export interface InvestigationStore {
  /** Creates the investigation; returns false (and writes nothing) if it already exists. */
  create(input: NewInvestigation): Promise<boolean>;
  get(id: string): Promise<Investigation | undefined>;
  getTrigger(id: string): Promise<Trigger | undefined>;
  /** Newest first. */
  list(limit?: number): Promise<Investigation[]>;
  events(id: string): Promise<TranscriptEvent[]>;
  document(id: string, name: string): Promise<unknown>;
  stepOutcome(id: string, step: string): Promise<unknown>;
  commitStep(id: string, commit: StepCommit): Promise<void>;
  /**
   * Guards a side effect (a model call, a notification) that must happen once per investigation and
   * key, as an idempotency record: the first caller claims it for `leaseMs`; others see it in
   * progress until it is completed (then they get its result) or released or its lease runs out.
   */
  claimOnce(id: string, key: string, leaseMs: number): Promise<OnceClaim>;
  completeOnce(id: string, key: string, result: unknown): Promise<void>;
  /** The side effect failed: the next caller may claim it at once. */
  releaseOnce(id: string, key: string): Promise<void>;
  /**
   * Named values that outlive one investigation, such as recorded environments. A key names one
   * immutable value (recorded environments are keyed by their content's hash), so readers may cache it.
   */
  putSnapshot(key: string, value: unknown): Promise<void>;
  snapshot(key: string): Promise<unknown>;
}

export type OnceClaim = { state: 'claimed' } | { state: 'in-progress'; leaseUntil: Date } | { state: 'done'; result: unknown };

/** A step's commit lost a race: the step or another writer committed first. */
export class StepConflictError extends Error {
  override readonly name = 'StepConflictError';
}

/** A step writes more separate items than one DynamoDB transaction holds. */
export class TransactionLimitError extends Error {
  override readonly name = 'TransactionLimitError';
}

/** The investigation does not exist. */
export class InvestigationNotFoundError extends Error {
  override readonly name = 'InvestigationNotFoundError';
  constructor(readonly investigationId: string) {
    super(`investigation ${investigationId} not found`);
  }
}
