import type { RemediationContract } from './remediation.ts';
import { ecsForceNewDeploymentContract } from './remediation-ecs-force-new-deployment.ts';
import { ecsRollbackTaskDefinitionContract } from './remediation-ecs-rollback-task-definition.ts';
import { ecsSetDesiredCountContract } from './remediation-ecs-set-desired-count.ts';
import { lambdaAliasRollbackContract } from './remediation-lambda-alias-rollback.ts';
import { lambdaReservedConcurrencyContract } from './remediation-lambda-reserved-concurrency.ts';
import { ssmStartAutomationContract } from './remediation-ssm-automation.ts';

export {
  ecsForceNewDeploymentContract,
  ecsRollbackTaskDefinitionContract,
  ecsSetDesiredCountContract,
  lambdaAliasRollbackContract,
  lambdaReservedConcurrencyContract,
  ssmStartAutomationContract,
};

/** Every remediation tool, by contract: each changes production and runs only after a human approves. */
export const remediationContracts: readonly RemediationContract[] = [
  ecsForceNewDeploymentContract,
  ecsSetDesiredCountContract,
  ecsRollbackTaskDefinitionContract,
  lambdaAliasRollbackContract,
  lambdaReservedConcurrencyContract,
  ssmStartAutomationContract,
] as readonly RemediationContract[];
