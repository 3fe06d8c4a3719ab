import { plan } from '../lib/workflow/plan.ts';
import { coreFrom, toolSourceFrom } from './ports.ts';
import { stepHandler } from './runtime.ts';

export const handler = stepHandler(
  'plan',
  async (environment) => {
    const core = coreFrom(environment);
    return { ...core, tools: toolSourceFrom(environment, core.store) };
  },
  plan,
);
