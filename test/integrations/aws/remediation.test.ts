import { DescribeServicesCommand, ECSClient, ListTaskDefinitionsCommand, UpdateServiceCommand } from '@aws-sdk/client-ecs';
import {
  GetAliasCommand,
  GetFunctionConcurrencyCommand,
  GetFunctionConfigurationCommand,
  LambdaClient,
  ListVersionsByFunctionCommand,
  PutFunctionConcurrencyCommand,
  UpdateAliasCommand,
} from '@aws-sdk/client-lambda';
import { SSMClient, StartAutomationExecutionCommand } from '@aws-sdk/client-ssm';
import { AssumeRoleCommand, STSClient } from '@aws-sdk/client-sts';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { AwsClients } from '../../../integrations/aws/clients.ts';
import { awsRemediationTools, narrowedByRole, type ActionGrant } from '../../../integrations/aws/remediation/index.ts';
import { recordedRemediationTools } from '../../../integrations/scenario/tools/remediation.ts';
import { remediationContracts } from '../../../lib/tools/contracts/remediation-contracts.ts';
import { runsWithoutApproval } from '../../../lib/tools/tool.ts';
import { Toolbox } from '../../../lib/tools/toolbox.ts';

const now = new Date('2026-04-06T04:10:00Z');
const serviceArn = 'arn:aws:ecs:us-east-1:123456789012:service/prod/orders';
const taskDefinition = (revision: number) => `arn:aws:ecs:us-east-1:123456789012:task-definition/orders:${revision}`;

const ecs = mockClient(ECSClient);
const lambda = mockClient(LambdaClient);
const ssm = mockClient(SSMClient);
const sts = mockClient(STSClient);

let grants: ActionGrant[] = [];
const clients = new AwsClients('us-east-1', { kind: 'live', credentials: async () => ({ accessKeyId: 'read', secretAccessKey: 'read' }) });
const tools = () => {
  const narrowed = narrowedByRole({ roleArn: 'arn:aws:iam::123456789012:role/sre-agent-remediation', region: 'us-east-1', sts: new STSClient({ region: 'us-east-1' }) });
  return awsRemediationTools({
    clients,
    accountId: '123456789012',
    narrowed: async (grant) => {
      grants.push(grant);
      return narrowed(grant);
    },
  });
};
const toolNamed = (name: string) => {
  const tool = tools().find((candidate) => candidate.name === name);
  if (!tool) throw new Error(`no tool ${name}`);
  return tool;
};
const run = async (name: string, input: Record<string, unknown>) => {
  const tool = toolNamed(name);
  const result = await tool.run(tool.input.parse(input), { now });
  return tool.output.parse(result.data) as { action: string; target: string; previousValue: string | null; newValue: string | null; status: string };
};

beforeEach(() => {
  for (const mock of [ecs, lambda, ssm, sts]) mock.reset();
  grants = [];
  sts.on(AssumeRoleCommand).resolves({ Credentials: { AccessKeyId: 'narrow', SecretAccessKey: 'narrow', SessionToken: 'session', Expiration: new Date(Date.now() + 900_000) } });
  ecs.on(DescribeServicesCommand).resolves({
    services: [{ serviceArn, serviceName: 'orders', desiredCount: 4, runningCount: 4, taskDefinition: taskDefinition(12) }],
  });
});

describe('AWS remediation tools', () => {
  it('every remediation tool needs an approval, on AWS and in a scenario, and implements its contract', () => {
    for (const tool of [...tools(), ...recordedRemediationTools()]) {
      expect(tool.sideEffect).toBe('mutating');
      expect(runsWithoutApproval(tool, {})).toBe(false);
      expect(tool.describeCall).toBeTypeOf('function');
    }
    expect(tools().map((tool) => tool.name).sort()).toEqual(remediationContracts.map((contract) => contract.name).sort());
    expect(recordedRemediationTools().map((tool) => tool.name).sort()).toEqual(remediationContracts.map((contract) => contract.name).sort());
  });

  it('sets the desired count through a session narrowed to ecs:UpdateService on that service, and reports the previous count', async () => {
    ecs.on(UpdateServiceCommand).resolves({ service: { serviceArn, desiredCount: 8 } });
    const result = await run('ecs_set_desired_count', { cluster: 'prod', service: 'orders', desiredCount: 8 });
    expect(result).toMatchObject({ target: serviceArn, previousValue: '4', newValue: '8', status: 'executed' });
    expect(grants).toEqual([{ action: 'ecs:UpdateService', resource: serviceArn }]);
    const assumed = sts.commandCalls(AssumeRoleCommand)[0]!.args[0].input;
    expect(JSON.parse(assumed.Policy!)).toEqual({ Version: '2012-10-17', Statement: [{ Effect: 'Allow', Action: 'ecs:UpdateService', Resource: serviceArn }] });
    expect(ecs.commandCalls(UpdateServiceCommand)[0]!.args[0].input).toEqual({ cluster: 'prod', service: serviceArn, desiredCount: 8 });
  });

  it('forces a new deployment of the same task definition', async () => {
    ecs.on(UpdateServiceCommand).resolves({ service: { serviceArn, deployments: [{ id: 'ecs-svc/1', status: 'PRIMARY', taskDefinition: taskDefinition(12) }] } });
    const result = await run('ecs_force_new_deployment', { cluster: 'prod', service: 'orders' });
    expect(result.previousValue).toBe(`4 running tasks of ${taskDefinition(12)}`);
    expect(result.newValue).toContain('ecs-svc/1');
    expect(ecs.commandCalls(UpdateServiceCommand)[0]!.args[0].input).toMatchObject({ forceNewDeployment: true });
  });

  it('rolls back to the newest active revision before the current one, across pages', async () => {
    ecs
      .on(ListTaskDefinitionsCommand)
      .callsFake((input: { nextToken?: string }) =>
        input.nextToken === 'page-2' ? { taskDefinitionArns: [taskDefinition(10), taskDefinition(9)] } : { taskDefinitionArns: [taskDefinition(12)], nextToken: 'page-2' },
      );
    ecs.on(UpdateServiceCommand).resolves({ service: { serviceArn } });
    const tool = toolNamed('ecs_rollback_task_definition');
    expect(await tool.preview!(tool.input.parse({ cluster: 'prod', service: 'orders' }), { now })).toEqual({ previousValue: `${taskDefinition(12)} (would become ${taskDefinition(10)})` });
    const result = await run('ecs_rollback_task_definition', { cluster: 'prod', service: 'orders' });
    expect(result).toMatchObject({ previousValue: taskDefinition(12), newValue: taskDefinition(10) });
    expect(ecs.commandCalls(UpdateServiceCommand)[0]!.args[0].input).toMatchObject({ taskDefinition: taskDefinition(10) });
  });

  it('refuses a rollback with no earlier active revision, and changes nothing', async () => {
    ecs.on(ListTaskDefinitionsCommand).resolves({ taskDefinitionArns: [taskDefinition(12)] });
    await expect(run('ecs_rollback_task_definition', { cluster: 'prod', service: 'orders' })).rejects.toThrow(/no active revision before 12/);
    expect(ecs.commandCalls(UpdateServiceCommand)).toHaveLength(0);
    expect(sts.commandCalls(AssumeRoleCommand)).toHaveLength(0);
  });

  it('points a Lambda alias at the highest published version below the current one', async () => {
    const aliasArn = 'arn:aws:lambda:us-east-1:123456789012:function:billing:live';
    lambda.on(GetAliasCommand).resolves({ AliasArn: aliasArn, FunctionVersion: '7' });
    lambda
      .on(ListVersionsByFunctionCommand)
      .resolvesOnce({ Versions: [{ Version: '$LATEST' }, { Version: '4' }, { Version: '7' }], NextMarker: 'm' })
      .resolvesOnce({ Versions: [{ Version: '6' }, { Version: '8' }] });
    lambda.on(UpdateAliasCommand).resolves({ FunctionVersion: '6' });
    const result = await run('lambda_rollback_alias', { functionName: 'billing', alias: 'live' });
    expect(result).toMatchObject({ target: aliasArn, previousValue: '7', newValue: '6' });
    expect(grants).toEqual([{ action: 'lambda:UpdateAlias', resource: aliasArn }]);
  });

  it('changes reserved concurrency and says the function was unreserved before', async () => {
    const functionArn = 'arn:aws:lambda:us-east-1:123456789012:function:billing';
    lambda.on(GetFunctionConfigurationCommand).resolves({ FunctionArn: functionArn });
    lambda.on(GetFunctionConcurrencyCommand).resolves({});
    lambda.on(PutFunctionConcurrencyCommand).resolves({ ReservedConcurrentExecutions: 50 });
    const result = await run('lambda_set_reserved_concurrency', { functionName: 'billing', reservedConcurrency: 50 });
    expect(result).toMatchObject({ previousValue: 'unreserved (the account pool)', newValue: '50' });
    expect(grants).toEqual([{ action: 'lambda:PutFunctionConcurrency', resource: functionArn }]);
  });

  it('starts an SSM Automation document, narrowed to its definition', async () => {
    ssm.on(StartAutomationExecutionCommand).resolves({ AutomationExecutionId: 'exec-1' });
    const result = await run('ssm_start_automation', { documentName: 'AWS-RestartEC2Instance', parameters: { InstanceId: ['i-1'] } });
    expect(result).toMatchObject({ previousValue: null, newValue: 'execution exec-1' });
    expect(grants).toEqual([{ action: 'ssm:StartAutomationExecution', resource: 'arn:aws:ssm:us-east-1:123456789012:automation-definition/AWS-RestartEC2Instance:*' }]);
  });

  it('the toolbox refuses to run any of them without an approval', async () => {
    const outcome = await new Toolbox(tools()).execute({ id: 'c1', name: 'ecs_set_desired_count', arguments: { cluster: 'prod', service: 'orders', desiredCount: 0 } }, { now });
    expect(outcome).toMatchObject({ ok: false, error: expect.stringMatching(/needs a human approval/) });
    expect(ecs.commandCalls(UpdateServiceCommand)).toHaveLength(0);
  });

  it('the scenario versions record and do not execute', async () => {
    const tool = recordedRemediationTools().find((candidate) => candidate.name === 'ecs_set_desired_count')!;
    const result = await tool.run(tool.input.parse({ cluster: 'prod', service: 'orders', desiredCount: 0 }), { now });
    expect(result.data).toMatchObject({ status: 'recorded', target: 'ECS service orders in cluster prod' });
    expect(ecs.calls()).toHaveLength(0);
  });
});
