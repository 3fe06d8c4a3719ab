import { runTools } from '../lib/workflow/run-tools.ts';
import { coreFrom, toolSourceFrom } from './ports.ts';
import { stepHandler } from './runtime.ts';

export const handler = stepHandler(
  'run-tools',
  async (environment) => {
    const core = coreFrom(environment);
    const { maxToolCallsPerTurn } = environment.investigation();
    return { ...core, tools: toolSourceFrom(environment, core.store), ...(maxToolCallsPerTurn === undefined ? {} : { maxToolCallsPerTurn }) };
  },
  runTools,
);
