import { z } from 'zod';
import type { Investigation } from '../domain/investigation.ts';
import { trigger as triggerSchema, triggerKind } from '../domain/trigger.ts';
import { emptyUsage } from '../domain/usage.ts';
import { describeTrigger } from '../triggers/brief.ts';
import { identifyTrigger, investigationIdFor } from '../triggers/identity.ts';
import { startStepInput, type ControlState } from './control.ts';
import { now, type StepDependencies } from './dependencies.ts';

export class InvalidTriggerError extends Error {
  override readonly name = 'InvalidTriggerError';
}

export class DuplicateInvestigationError extends Error {
  override readonly name = 'DuplicateInvestigationError';
}

export const startInvestigation = async (dependencies: StepDependencies['start-investigation'], rawInput: unknown): Promise<ControlState> => {
  const { input, maxIterations, executionId } = startStepInput.parse(rawInput);
  const parsed = triggerSchema.safeParse(input.trigger);
  if (!parsed.success) throw new InvalidTriggerError(`the trigger is not valid: ${z.prettifyError(parsed.error)}`);
  const trigger = parsed.data;
  // An alert delivered twice (alarm ARN + state time, PagerDuty incident id) gets the same id, so the second is refused.
  const identity = identifyTrigger(trigger);
  const id = input.investigationId ?? investigationIdFor(identity);
  const at = now(dependencies).toISOString();
  const investigation: Investigation = {
    id,
    triggerKind: triggerKind(trigger),
    triggerSummary: describeTrigger(trigger).summary,
    status: 'running',
    createdAt: at,
    updatedAt: at,
    eventCount: 0,
    iterations: 0,
    usage: emptyUsage(),
    modelName: dependencies.model.name,
    toolSource: input.toolSource ?? { kind: 'none' },
    ...(identity.service === undefined ? {} : { service: identity.service }),
    ...(executionId === undefined ? {} : { executionId }),
  };
  const outcome: ControlState = { investigationId: id, iteration: 0, maxIterations, finalOnly: false, stagnantTurns: 0, pendingApprovals: [] };
  if (await dependencies.store.create({ investigation, trigger })) return outcome;
  const existing = await dependencies.store.get(id);
  if (executionId !== undefined && existing?.executionId === executionId) return outcome;
  throw new DuplicateInvestigationError(`investigation ${id} already exists; this trigger was already investigated`);
};
