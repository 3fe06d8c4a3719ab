import { publish } from '../lib/workflow/publish.ts';
import { reportingNotifier } from './notifier.ts';
import { coreFrom } from './ports.ts';
import { stepHandler } from './runtime.ts';

export const handler = stepHandler(
  'publish',
  async (environment) => {
    const core = coreFrom(environment);
    return { ...core, notifier: reportingNotifier(environment, core.store) };
  },
  publish,
);
