import { cloudTrailEmulation } from './cloudtrail.ts';
import { cloudWatchEmulation } from './cloudwatch.ts';
import type { ServiceEmulation } from './emulator.ts';
import { lambdaEmulation } from './lambda.ts';

/**
 * Every AWS service the tools call, answered from a recorded environment, by SDK client class name
 * (`CloudWatchLogsClient`). Each service's answers live in a file of their own beside this one.
 */
export const scenarioEmulations: ReadonlyMap<string, ServiceEmulation> = new Map<string, ServiceEmulation>([
  ['CloudWatchClient', cloudWatchEmulation],
  ['CloudTrailClient', cloudTrailEmulation],
  ['LambdaClient', lambdaEmulation],
]);
