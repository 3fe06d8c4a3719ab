import type { ToolDefinition } from '../../../lib/tools/tool.ts';
import type { RemediationDependencies } from './dependencies.ts';
import { ecsForceNewDeployment } from './ecs-force-new-deployment.ts';
import { ecsRollbackTaskDefinition } from './ecs-rollback-task-definition.ts';
import { ecsSetDesiredCount } from './ecs-set-desired-count.ts';
import { lambdaAliasRollback } from './lambda-alias-rollback.ts';
import { lambdaReservedConcurrency } from './lambda-reserved-concurrency.ts';
import { ssmStartAutomation } from './ssm-automation.ts';

export { narrowedByRole, sessionPolicy, type ActionGrant, type NarrowedClients } from './narrowed-clients.ts';
export type { RemediationDependencies } from './dependencies.ts';

/** The AWS remediation tools: each reads the value it will change, then changes it through narrowed clients. */
export const awsRemediationTools = (dependencies: RemediationDependencies): ToolDefinition[] =>
  [
    ecsForceNewDeployment(dependencies),
    ecsSetDesiredCount(dependencies),
    ecsRollbackTaskDefinition(dependencies),
    lambdaAliasRollback(dependencies),
    lambdaReservedConcurrency(dependencies),
    ssmStartAutomation(dependencies),
  ] as ToolDefinition[];
