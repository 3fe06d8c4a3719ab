import { createHash } from 'node:crypto';
import type {
  Deployment,
  ListTaskDefinitionsCommandInput,
  ListTaskDefinitionsCommandOutput,
  UpdateServiceCommandInput,
  UpdateServiceCommandOutput,
} from '@aws-sdk/client-ecs';
import type {
  GetAliasCommandInput,
  GetAliasCommandOutput,
  PutFunctionConcurrencyCommandInput,
  PutFunctionConcurrencyCommandOutput,
  UpdateAliasCommandInput,
  UpdateAliasCommandOutput,
} from '@aws-sdk/client-lambda';
import type { StartAutomationExecutionCommandInput, StartAutomationExecutionCommandOutput } from '@aws-sdk/client-ssm';
import type { AssumeRoleCommandInput, AssumeRoleCommandOutput } from '@aws-sdk/client-sts';
import type { RecordedEnvironment } from '../../scenario/recorded-environment.ts';
import { revisionsOf, taskDefinitionArn } from './ecs.ts';
import { ecsActivityEmulation } from './ecs-activity.ts';
import { serviceException, type Answer, type ServiceEmulation } from './emulator.ts';
import { lambdaEmulation } from './lambda.ts';
import { emulatedAccount, resourceNameOf } from './service-identity.ts';

/** A change a remediation asked of the emulated account: answered as AWS would, applied to nothing. */
export interface EmulatedChange {
  command: string;
  input: Record<string, unknown>;
}

const changesMade = new WeakMap<RecordedEnvironment, EmulatedChange[]>();

/** The changes asked of this recorded environment, in order: what an approved action would have done. */
export const emulatedChanges = (environment: RecordedEnvironment): readonly EmulatedChange[] => changesMade.get(environment) ?? [];

const record = (environment: RecordedEnvironment, command: string, input: object): void => {
  const made = changesMade.get(environment) ?? [];
  made.push({ command, input: structuredClone(input) as Record<string, unknown> });
  changesMade.set(environment, made);
};

/** Ids AWS would mint, made from what was asked so a replay of the same scenario answers the same. */
const mintedId = (environment: RecordedEnvironment, ...parts: unknown[]): string =>
  createHash('sha256').update(JSON.stringify([environment.nowMillis, emulatedChanges(environment).length, ...parts])).digest('hex');

// --- ECS -----------------------------------------------------------------------------------------

const describedNow = (environment: RecordedEnvironment, cluster: string | undefined, service: string) => {
  const describe = ecsActivityEmulation.DescribeServicesCommand as (input: { cluster?: string; services: string[] }, environment: RecordedEnvironment) => Answer<UpdateServiceCommandOutput> & { services?: NonNullable<UpdateServiceCommandOutput['service']>[] };
  const found = describe({ ...(cluster ? { cluster } : {}), services: [service] }, environment).services?.[0];
  if (!found) throw serviceException('ServiceNotFoundException', 'Service not found.');
  return found;
};

/** UpdateService: a new task definition or a forced deployment starts a PRIMARY deployment; a new desired count alone does not. */
const updateService = (input: UpdateServiceCommandInput, environment: RecordedEnvironment): Answer<UpdateServiceCommandOutput> => {
  if (!input.service) throw serviceException('InvalidParameterException', 'service can not be blank.');
  if (input.desiredCount !== undefined && input.desiredCount < 0) throw serviceException('InvalidParameterException', 'desiredCount must be at least 0.');
  const current = describedNow(environment, input.cluster, input.service);
  record(environment, 'ecs:UpdateService', input);
  const desiredCount = input.desiredCount ?? current.desiredCount ?? 0;
  const taskDefinition = input.taskDefinition ?? current.taskDefinition;
  const redeploys = input.forceNewDeployment === true || (input.taskDefinition !== undefined && input.taskDefinition !== current.taskDefinition);
  const previous = (current.deployments ?? []).map((deployment): Deployment => ({ ...deployment, ...(redeploys ? { status: 'ACTIVE' } : { desiredCount }) }));
  const started: Deployment[] = redeploys
    ? [
        {
          id: `ecs-svc/${BigInt(`0x${mintedId(environment, 'deployment', input).slice(0, 15)}`).toString().slice(0, 19)}`,
          status: 'PRIMARY',
          taskDefinition,
          desiredCount,
          pendingCount: 0,
          runningCount: 0,
          failedTasks: 0,
          createdAt: environment.now,
          updatedAt: environment.now,
          launchType: current.launchType,
          rolloutState: 'IN_PROGRESS',
          rolloutStateReason: 'ECS deployment in progress.',
        },
      ]
    : [];
  return { service: { ...current, desiredCount, taskDefinition, deployments: [...started, ...previous] } };
};

/** The family's ACTIVE revisions: those its recorded deploys registered. */
const listTaskDefinitions = (input: ListTaskDefinitionsCommandInput, environment: RecordedEnvironment): Answer<ListTaskDefinitionsCommandOutput> => {
  if (input.status === 'INACTIVE') return { taskDefinitionArns: [] };
  const families = environment.services.filter((service) => service.kind === 'ecs' && (input.familyPrefix === undefined || service.name.startsWith(input.familyPrefix)));
  const arns = families.flatMap((service) => revisionsOf(environment, service.name).map((revision) => taskDefinitionArn(environment, service.name, revision)));
  const revision = (arn: string) => Number(arn.split(':').at(-1));
  const sorted = [...arns].sort((a, b) => (input.sort === 'DESC' ? revision(b) - revision(a) : revision(a) - revision(b)));
  return { taskDefinitionArns: sorted };
};

export const ecsRemediationEmulation: ServiceEmulation = { UpdateServiceCommand: updateService, ListTaskDefinitionsCommand: listTaskDefinitions };

// --- Lambda --------------------------------------------------------------------------------------

type Alias = NonNullable<Answer<GetAliasCommandOutput>>;

const aliasOf = (environment: RecordedEnvironment, functionName: string | undefined, name: string | undefined): Alias => {
  const listAliases = lambdaEmulation.ListAliasesCommand as (input: { FunctionName?: string }, environment: RecordedEnvironment) => { Aliases?: Alias[] };
  const alias = listAliases({ ...(functionName ? { FunctionName: functionName } : {}) }, environment).Aliases?.find((candidate) => candidate.Name === name);
  if (!alias) throw serviceException('ResourceNotFoundException', `Alias not found: ${functionName ?? ''}:${name ?? ''}`, 404);
  return { ...alias, RevisionId: mintedId(environment, 'alias', alias.AliasArn).slice(0, 32) };
};

const getAlias = (input: GetAliasCommandInput, environment: RecordedEnvironment): Answer<GetAliasCommandOutput> => aliasOf(environment, input.FunctionName, input.Name);

const updateAlias = (input: UpdateAliasCommandInput, environment: RecordedEnvironment): Answer<UpdateAliasCommandOutput> => {
  const alias = aliasOf(environment, input.FunctionName, input.Name);
  const versions = lambdaEmulation.ListVersionsByFunctionCommand as (input: { FunctionName?: string; MaxItems?: number; Marker?: string }, environment: RecordedEnvironment) => { Versions?: { Version?: string }[]; NextMarker?: string };
  const published = new Set<string>();
  let marker: string | undefined;
  do {
    const page = versions({ ...(input.FunctionName ? { FunctionName: input.FunctionName } : {}), ...(marker ? { Marker: marker } : {}) }, environment);
    for (const { Version } of page.Versions ?? []) if (Version) published.add(Version);
    marker = page.NextMarker;
  } while (marker);
  if (input.FunctionVersion !== undefined && !published.has(input.FunctionVersion)) throw serviceException('ResourceNotFoundException', `Function not found: ${alias.AliasArn?.replace(/:[^:]+$/, '')}:${input.FunctionVersion}`, 404);
  record(environment, 'lambda:UpdateAlias', input);
  return { ...alias, FunctionVersion: input.FunctionVersion ?? alias.FunctionVersion, RevisionId: mintedId(environment, 'alias', input).slice(0, 32) };
};

const putFunctionConcurrency = (input: PutFunctionConcurrencyCommandInput, environment: RecordedEnvironment): Answer<PutFunctionConcurrencyCommandOutput> => {
  const configuration = lambdaEmulation.GetFunctionConfigurationCommand as (input: { FunctionName?: string }, environment: RecordedEnvironment) => { FunctionArn?: string };
  configuration({ ...(input.FunctionName ? { FunctionName: input.FunctionName } : {}) }, environment);
  if (input.ReservedConcurrentExecutions === undefined || input.ReservedConcurrentExecutions < 0) {
    throw serviceException('InvalidParameterValueException', 'ReservedConcurrentExecutions must be 0 or more.');
  }
  record(environment, 'lambda:PutFunctionConcurrency', input);
  return { ReservedConcurrentExecutions: input.ReservedConcurrentExecutions };
};

export const lambdaRemediationEmulation: ServiceEmulation = { GetAliasCommand: getAlias, UpdateAliasCommand: updateAlias, PutFunctionConcurrencyCommand: putFunctionConcurrency };

// --- SSM -----------------------------------------------------------------------------------------

/** SSM document names: letters, digits, `_`, `-`, `.`, 3 to 128 of them (or a document ARN). */
const DOCUMENT_NAME = /^(arn:[^\s]+|[a-zA-Z0-9_.-]{3,128})$/;

const startAutomationExecution = (input: StartAutomationExecutionCommandInput, environment: RecordedEnvironment): Answer<StartAutomationExecutionCommandOutput> => {
  if (!input.DocumentName || !DOCUMENT_NAME.test(input.DocumentName)) throw serviceException('InvalidDocument', `Document ${input.DocumentName ?? ''} is not a valid document name.`);
  record(environment, 'ssm:StartAutomationExecution', input);
  const id = mintedId(environment, 'automation', input);
  return { AutomationExecutionId: `${id.slice(0, 8)}-${id.slice(8, 12)}-${id.slice(12, 16)}-${id.slice(16, 20)}-${id.slice(20, 32)}` };
};

export const ssmEmulation: ServiceEmulation = { StartAutomationExecutionCommand: startAutomationExecution };

// --- STS -----------------------------------------------------------------------------------------

const ROLE_ARN = /^arn:aws[\w-]*:iam::(\d{12}):role\/(?:.*\/)?([\w+=,.@-]+)$/;
/** AssumeRole's limit on an inline session policy, in characters. */
const SESSION_POLICY_MAX = 2048;

/** AssumeRole in the emulated account: the role must be this account's, the session policy valid JSON; the session is recorded. */
const assumeRole = (input: AssumeRoleCommandInput, environment: RecordedEnvironment): Answer<AssumeRoleCommandOutput> => {
  const role = ROLE_ARN.exec(input.RoleArn ?? '');
  if (!role) throw serviceException('ValidationError', `${input.RoleArn ?? ''} is not a valid role ARN.`);
  if (role[1] !== emulatedAccount(environment)) throw serviceException('AccessDenied', `User is not authorized to perform: sts:AssumeRole on resource: ${input.RoleArn}`, 403);
  if (input.Policy !== undefined) {
    if (input.Policy.length > SESSION_POLICY_MAX) throw serviceException('PackedPolicyTooLarge', 'The inline session policy is too large.');
    try {
      JSON.parse(input.Policy);
    } catch {
      throw serviceException('MalformedPolicyDocument', 'The session policy is not valid JSON.');
    }
  }
  record(environment, 'sts:AssumeRole', input);
  const id = mintedId(environment, 'session', input).toUpperCase();
  const session = input.RoleSessionName ?? 'session';
  return {
    Credentials: {
      AccessKeyId: `ASIA${id.slice(0, 16)}`,
      SecretAccessKey: id.slice(16, 56),
      SessionToken: `emulated-${id.slice(0, 32)}`,
      Expiration: new Date(environment.nowMillis + (input.DurationSeconds ?? 3600) * 1000),
    },
    AssumedRoleUser: { AssumedRoleId: `AROA${id.slice(32, 48)}:${session}`, Arn: `arn:aws:sts::${role[1]}:assumed-role/${resourceNameOf(input.RoleArn ?? '')}/${session}` },
    ...(input.Policy ? { PackedPolicySize: Math.ceil((input.Policy.length * 100) / SESSION_POLICY_MAX) } : {}),
  };
};

export const stsEmulation: ServiceEmulation = { AssumeRoleCommand: assumeRole };
