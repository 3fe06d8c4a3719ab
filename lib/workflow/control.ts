import { z } from 'zod';
import { toolSourceRef } from '../domain/investigation.ts';

/** The small state the state machine carries between steps; everything else lives in the store. */
export const controlState = z.object({
  investigationId: z.string().min(1),
  iteration: z.number().int().nonnegative(),
  maxIterations: z.number().int().positive(),
  finalOnly: z.boolean().default(false),
  next: z.enum(['tools', 'final']).optional(),
  /** Turns in a row whose tool calls all repeated earlier ones. */
  stagnantTurns: z.number().int().nonnegative().default(0),
  /** Tool calls of the last turn that wait for a human approval, in the order the model made them; they run one at a time. */
  pendingApprovals: z.array(z.string()).default([]),
  /** Why the loop ended before the model answered (a budget ran out). */
  stopReason: z.string().optional(),
});
export type ControlState = z.infer<typeof controlState>;

/** The execution input: a raw trigger, and optionally a chosen id and tool source. */
export const executionInput = z.object({
  trigger: z.unknown(),
  investigationId: z.string().regex(/^[A-Za-z0-9._-]{1,100}$/, 'expected 1-100 letters, digits, dots, dashes or underscores').optional(),
  toolSource: toolSourceRef.optional(),
});
export type ExecutionInput = z.infer<typeof executionInput>;

export const startStepInput = z.object({
  input: executionInput,
  maxIterations: z.number().int().positive(),
  executionId: z.string().optional(),
});

/** What a Catch hands to RecordFailure: the state as it was, plus the error. */
export const failureStepInput = z.object({
  investigationId: z.string().optional(),
  failure: z.object({ Error: z.string(), Cause: z.string().optional() }),
});

/** The Lambda-backed steps of an investigation, one handler file each (`functions/<step>.ts`); the CDK construct uses this list. */
export const stepNames = [
  'start-investigation',
  'plan',
  'call-model',
  'run-tools',
  'request-approval',
  'resolve-approval',
  'write-finding',
  'publish',
  'record-failure',
] as const;
export type StepName = (typeof stepNames)[number];

/** What the approval state hands its Lambda: the state, the task token (kept server-side) and the expiry the state enforces. */
export const approvalRequestInput = z.object({
  state: controlState,
  taskToken: z.string().min(1),
  expiresInSeconds: z.number().int().positive(),
});

/** What ResolveApproval receives: the state, and the wait's error when it ended without success (rejected, timed out). */
export const approvalResolutionInput = controlState.extend({
  approvalError: z.object({ Error: z.string(), Cause: z.string().optional() }).optional(),
});
