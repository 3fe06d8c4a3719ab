import type { ToolDefinition } from '../../../lib/tools/tool.ts';
import type { AwsRemediationToolName } from '../settings.ts';
import type { RemediationDependencies } from './dependencies.ts';
import { ecsForceNewDeployment } from './ecs-force-new-deployment.ts';
import { ecsRollbackTaskDefinition } from './ecs-rollback-task-definition.ts';
import { ecsSetDesiredCount } from './ecs-set-desired-count.ts';
import { lambdaAliasRollback } from './lambda-alias-rollback.ts';
import { lambdaReservedConcurrency } from './lambda-reserved-concurrency.ts';
import { ssmStartAutomation } from './ssm-automation.ts';

export { narrowedByRole, sessionPolicy, type ActionGrant, type NarrowedClients } from './narrowed-clients.ts';
export type { RemediationDependencies } from './dependencies.ts';

export interface RemediationFactory {
  create: (dependencies: RemediationDependencies) => ToolDefinition;
  /**
   * The one action the tool takes through its narrowed session: the remediation role is granted
   * these, and the function that runs the tools only the rest of the tool's `iamActions` (its reads).
   */
  changeAction: string;
}

/** Every AWS remediation tool, by contract name: each reads the value it will change, then changes it through narrowed clients. */
export const awsRemediationFactories: Readonly<Record<AwsRemediationToolName, RemediationFactory>> = {
  ecs_force_new_deployment: { create: (dependencies) => ecsForceNewDeployment(dependencies) as ToolDefinition, changeAction: 'ecs:UpdateService' },
  ecs_set_desired_count: { create: (dependencies) => ecsSetDesiredCount(dependencies) as ToolDefinition, changeAction: 'ecs:UpdateService' },
  ecs_rollback_task_definition: { create: (dependencies) => ecsRollbackTaskDefinition(dependencies) as ToolDefinition, changeAction: 'ecs:UpdateService' },
  lambda_rollback_alias: { create: (dependencies) => lambdaAliasRollback(dependencies) as ToolDefinition, changeAction: 'lambda:UpdateAlias' },
  lambda_set_reserved_concurrency: { create: (dependencies) => lambdaReservedConcurrency(dependencies) as ToolDefinition, changeAction: 'lambda:PutFunctionConcurrency' },
  ssm_start_automation: { create: (dependencies) => ssmStartAutomation(dependencies) as ToolDefinition, changeAction: 'ssm:StartAutomationExecution' },
};

/** The AWS remediation tools, all of them. */
export const awsRemediationTools = (dependencies: RemediationDependencies): ToolDefinition[] =>
  Object.values(awsRemediationFactories).map((factory) => factory.create(dependencies));
