import { runTools } from '../lib/workflow/run-tools.ts';
import { coreFrom, toolSourceFrom } from './ports.ts';
import { stepHandler } from './runtime.ts';

export const handler = stepHandler(
  'run-tools',
  async (environment) => {
    const core = coreFrom(environment);
    return { ...core, tools: toolSourceFrom(environment, core.store) };
  },
  runTools,
);
