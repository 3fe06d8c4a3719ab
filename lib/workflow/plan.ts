import { triggerKind } from '../domain/trigger.ts';
import { describeTrigger } from '../triggers/brief.ts';
import { controlState, type ControlState } from './control.ts';
import type { PlanPayload } from './conversation.ts';
import type { StepDependencies } from './dependencies.ts';
import { loadMasker, maskMapDocument } from './privacy.ts';
import { checklist, systemPrompt } from './prompts.ts';
import { runStep } from './run-step.ts';

/** Writes the plan: the instructions, the masked alert brief, the checklist and the tools on offer. */
export const plan = async (dependencies: StepDependencies['plan'], input: unknown): Promise<ControlState> => {
  const state = controlState.parse(input);
  return runStep(dependencies, state.investigationId, 'plan', async (head) => {
    const trigger = await dependencies.store.getTrigger(head.id);
    if (!trigger) throw new Error(`investigation ${head.id} has no trigger`);
    const { toolbox } = await dependencies.tools.load(head);
    const masker = await loadMasker(dependencies.store, head.id, dependencies.masking);
    const payload: PlanPayload = masker.maskJson({
      system: systemPrompt(),
      brief: describeTrigger(trigger).text,
      checklist: checklist(triggerKind(trigger)),
      tools: toolbox.specs(),
    });
    return { events: [{ type: 'plan', payload }], head, documents: maskMapDocument(masker), outcome: state };
  });
};
