import { writeFinding } from '../lib/workflow/write-finding.ts';
import { coreFrom } from './ports.ts';
import { stepHandler } from './runtime.ts';

export const handler = stepHandler('write-finding', async (environment) => coreFrom(environment), writeFinding);
