import { cloudTrailEmulation } from './cloudtrail.ts';
import { cloudWatchEmulation } from './cloudwatch.ts';
import { ecsEmulation } from './ecs.ts';
import { ecsActivityEmulation } from './ecs-activity.ts';
import type { ServiceEmulation } from './emulator.ts';
import { lambdaEmulation } from './lambda.ts';
import { logsEmulation } from './logs.ts';
import { rdsEmulation } from './rds.ts';
import { ecsRemediationEmulation, lambdaRemediationEmulation, ssmEmulation, stsEmulation } from './remediation.ts';
import { s3Emulation } from './s3.ts';
import { taggingEmulation } from './tagging.ts';
import { xrayGraphEmulation } from './xray-graph.ts';
import { xrayTracesEmulation } from './xray-traces.ts';

/**
 * Every AWS service the tools call, answered from a recorded environment, by SDK client class name
 * (`CloudWatchLogsClient`). Each service's answers live in a file of their own beside this one.
 */
export const scenarioEmulations: ReadonlyMap<string, ServiceEmulation> = new Map<string, ServiceEmulation>([
  ['CloudWatchClient', cloudWatchEmulation],
  ['CloudTrailClient', cloudTrailEmulation],
  ['LambdaClient', { ...lambdaEmulation, ...lambdaRemediationEmulation }],
  ['CloudWatchLogsClient', logsEmulation],
  ['ResourceGroupsTaggingAPIClient', taggingEmulation],
  ['ECSClient', { ...ecsEmulation, ...ecsActivityEmulation, ...ecsRemediationEmulation }],
  ['RDSClient', rdsEmulation],
  ['XRayClient', { ...xrayGraphEmulation, ...xrayTracesEmulation }],
  ['S3Client', s3Emulation],
  // The remediation tools' changes and the narrowed sessions they are made through: answered and recorded, applied to nothing.
  ['SSMClient', ssmEmulation],
  ['STSClient', stsEmulation],
]);
