import { stepHandler } from './runtime.ts';

export const handler = stepHandler('run-tools');
