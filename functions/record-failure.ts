import { recordFailure } from '../lib/workflow/record-failure.ts';
import { coreFrom } from './ports.ts';
import { stepHandler } from './runtime.ts';

export const handler = stepHandler('record-failure', async (environment) => coreFrom(environment), recordFailure);
