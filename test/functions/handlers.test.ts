import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BedrockRuntimeClient, ConverseCommand } from '@aws-sdk/client-bedrock-runtime';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { PublishCommand, SNSClient } from '@aws-sdk/client-sns';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { Context } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, inject, it, vi } from 'vitest';
import { SreAgentStack } from '../../cdk/sre-agent-stack.ts';
import { stepNames, type ControlState, type StepName } from '../../lib/workflow/control.ts';
import { BUNDLED_SCENARIOS_DIR, parseScenarioText } from '../../local/scenario-files.ts';
import { cdkJsonContext } from '../cdk/cdk-context.ts';
import { freshStore } from '../support/dynamodb.ts';
import { anthropicReply, openaiReply, startFakeAnthropic, startFakeOpenAI, type FakeModelServer } from '../support/fake-model-servers.ts';

const ACCOUNT = '123456789012';
const REGION = 'us-east-1';
const SECRET_ARN = `arn:aws:secretsmanager:${REGION}:${ACCOUNT}:secret:sre-agent/model-AbCdEf`;
const TOPIC_ARN = `arn:aws:sns:${REGION}:${ACCOUNT}:sre-agent-findings`;
const scenario = parseScenarioText(readFileSync(join(BUNDLED_SCENARIOS_DIR, 'bad-deploy-cascade.json'), 'utf8'), 'bad-deploy-cascade.json');

const answer = JSON.stringify({
  incident: true,
  rootCause: { service: 'inventory-api', category: 'deploy', summary: 'inventory-api v2.14.0 broke reservations' },
  confidence: 0.7,
  evidence: [{ ref: 'E1', summary: 'alarms' }],
  remediation: [{ action: 'rollback', target: 'inventory-api', detail: 'previous task definition' }],
});

type Provider = 'offline' | 'openai' | 'anthropic' | 'bedrock';

/** Each step function's environment exactly as the synthesized stack sets it, with its references resolved to local stand-ins. */
const stackEnvironments = (provider: Provider, tableName: string): Record<StepName, Record<string, string>> => {
  const app = new App({ context: { ...cdkJsonContext(), 'aws:cdk:bundling-stacks': [] } });
  const stack = new SreAgentStack(app, `Handlers${provider}`, {
    env: { account: ACCOUNT, region: REGION },
    modelProvider: provider,
    ...(provider === 'offline' ? {} : { modelName: provider === 'bedrock' ? 'anthropic.claude-3-5-sonnet-20240620-v1:0' : provider === 'openai' ? 'gpt-4o' : 'claude-sonnet-4-20250514' }),
    ...(provider === 'openai' || provider === 'anthropic' ? { modelSecretArn: SECRET_ARN } : {}),
  });
  const resources = Template.fromStack(stack).findResources('AWS::Lambda::Function');
  const environments = {} as Record<StepName, Record<string, string>>;
  for (const step of stepNames) {
    const fn = Object.values(resources).find((resource) => resource.Properties.Description === `sre-agent step ${step}`);
    expect(fn, `the stack has a function for ${step}`).toBeDefined();
    const variables = (fn!.Properties.Environment?.Variables ?? {}) as Record<string, unknown>;
    environments[step] = Object.fromEntries(
      Object.entries(variables).map(([name, value]) => {
        if (typeof value === 'string') return [name, value];
        if (name === 'TABLE_NAME') return [name, tableName];
        if (name === 'NOTIFICATION_TOPIC_ARN') return [name, TOPIC_ARN];
        if (name === 'STACK_ACCOUNT_ID') return [name, ACCOUNT];
        return [name, `resolved-${name}`];
      }),
    );
  }
  return environments;
};

/** What the Lambda runtime adds, and where this machine's stand-ins for AWS listen. */
const runtimeEnvironment = (): Record<string, string> => ({
  AWS_REGION: REGION,
  AWS_ACCESS_KEY_ID: 'test',
  AWS_SECRET_ACCESS_KEY: 'test',
  AWS_ENDPOINT_URL_DYNAMODB: inject('dynamoEndpoint'),
  AWS_SDK_JS_SUPPRESS_NODE_VERSION_WARNING: '1',
});

const setEnvironment = (variables: Record<string, string>): void => {
  for (const name of Object.keys(process.env)) if (name.startsWith('SRE_AGENT_') || ['TABLE_NAME', 'NOTIFICATION_TOPIC_ARN', 'RETENTION_DAYS'].includes(name)) delete process.env[name];
  Object.assign(process.env, variables);
};

const lambdaContext = { functionName: 'test', awsRequestId: 'req-1', invokedFunctionArn: `arn:aws:lambda:${REGION}:${ACCOUNT}:function:test` } as Context;

type Handler = (event: unknown, context: Context) => Promise<unknown>;

/** Imports every handler afresh (a new container each) and runs them in the state machine's order. */
const runWorkflow = async (environments: Record<StepName, Record<string, string>>, investigationId: string, snapshot: string) => {
  vi.resetModules();
  const handlers = {} as Record<StepName, Handler>;
  for (const step of stepNames) handlers[step] = ((await import(`../../functions/${step}.ts`)) as { handler: Handler }).handler;
  const invoke = async (step: StepName, event: unknown) => {
    setEnvironment({ ...runtimeEnvironment(), ...environments[step] });
    return handlers[step](event, lambdaContext);
  };
  let state = (await invoke('start-investigation', {
    input: { trigger: scenario.trigger, investigationId, toolSource: { kind: 'scenario-replay', snapshot } },
    maxIterations: 4,
    executionId: `arn:aws:states:${REGION}:${ACCOUNT}:execution:sre-agent:${investigationId}`,
  })) as ControlState;
  state = (await invoke('plan', state)) as ControlState;
  for (let turn = 0; turn < 6; turn += 1) {
    state = (await invoke('call-model', state)) as ControlState;
    if (state.next !== 'tools') break;
    state = (await invoke('run-tools', state)) as ControlState;
  }
  state = (await invoke('write-finding', state)) as ControlState;
  await invoke('publish', state);
  return { invoke };
};

const servers: FakeModelServer[] = [];
const mocks = { secrets: mockClient(SecretsManagerClient), sns: mockClient(SNSClient), bedrock: mockClient(BedrockRuntimeClient) };
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
  for (const mock of Object.values(mocks)) mock.reset();
});

const investigatesWith = async (provider: Provider, extraEnvironment: Record<string, string> = {}) => {
  const { store, tableName } = await freshStore();
  const snapshot = `env-handlers-${provider}`;
  await store.putSnapshot(snapshot, { now: scenario.now, environment: scenario.environment });
  mocks.sns.on(PublishCommand).resolves({ MessageId: 'm-1' });
  const environments = stackEnvironments(provider, tableName);
  for (const step of stepNames) Object.assign(environments[step], extraEnvironment);
  const investigationId = `inv-handlers-${provider}`;
  await runWorkflow(environments, investigationId, snapshot);
  const investigation = await store.get(investigationId);
  expect(investigation?.status).toBe('succeeded');
  expect(investigation?.finding?.rootCause.service).toBe('inventory-api');
  expect(mocks.sns.commandCalls(PublishCommand)).toHaveLength(1);
  return { environments, investigation };
};

describe('every Lambda handler with the stack\'s own environment', () => {
  it('offline: investigates end to end, and no step is given a model secret', async () => {
    const { environments } = await investigatesWith('offline');
    for (const step of stepNames) expect(environments[step].SRE_AGENT_MODEL_SECRET_ARN).toBeUndefined();
  });

  for (const provider of ['openai', 'anthropic'] as const) {
    it(`${provider}: only call-model reads the model secret, and every other step runs without it`, async () => {
      const key = provider === 'openai' ? 'OPENAI_API_KEY' : 'ANTHROPIC_API_KEY';
      mocks.secrets.on(GetSecretValueCommand).resolves({ SecretString: JSON.stringify({ [key]: 'sk-test' }), ARN: SECRET_ARN, Name: 'sre-agent/model' });
      const server =
        provider === 'openai'
          ? await startFakeOpenAI((request) => (/\bE1\b/.test(JSON.stringify(request.body)) ? openaiReply.text(answer) : openaiReply.toolCalls([{ id: 'call_1', name: 'list_alarms', arguments: {} }])))
          : await startFakeAnthropic((request) =>
              /\bE1\b/.test(JSON.stringify(request.body)) ? anthropicReply.text(answer) : anthropicReply.toolUse([{ id: 'toolu_1', name: 'list_alarms', input: {} }]),
            );
      servers.push(server);
      const baseUrl: Record<string, string> = provider === 'openai' ? { OPENAI_BASE_URL: server.baseURL } : { ANTHROPIC_BASE_URL: server.baseURL };
      const { environments, investigation } = await investigatesWith(provider, baseUrl);
      expect(investigation?.modelName).toBe(provider === 'openai' ? 'openai:gpt-4o' : 'anthropic:claude-sonnet-4-20250514');
      expect(server.requests.length).toBeGreaterThanOrEqual(2);
      expect(mocks.secrets.commandCalls(GetSecretValueCommand).length).toBeGreaterThan(0);
      const withSecret = stepNames.filter((step) => environments[step].SRE_AGENT_MODEL_SECRET_ARN !== undefined);
      expect(withSecret).toEqual(['call-model']);
    });
  }

  it('bedrock: call-model converses through the Bedrock runtime', async () => {
    const usage = { inputTokens: 120, outputTokens: 30, totalTokens: 150 };
    mocks.bedrock.on(ConverseCommand).callsFake((input: { messages?: unknown[] }) =>
      /\bE1\b/.test(JSON.stringify(input.messages))
        ? { output: { message: { role: 'assistant', content: [{ text: answer }] } }, stopReason: 'end_turn', usage }
        : { output: { message: { role: 'assistant', content: [{ toolUse: { toolUseId: 'tu_1', name: 'list_alarms', input: {} } }] } }, stopReason: 'tool_use', usage },
    );
    await investigatesWith('bedrock');
    expect(mocks.bedrock.commandCalls(ConverseCommand).length).toBeGreaterThanOrEqual(2);
  });

  it('a failed build is not kept: call-model succeeds once the secret can be read', async () => {
    const { store, tableName } = await freshStore();
    await store.putSnapshot('env-retry', { now: scenario.now, environment: scenario.environment });
    const server = await startFakeOpenAI(() => openaiReply.text(answer));
    servers.push(server);
    const environments = stackEnvironments('openai', tableName);
    for (const step of stepNames) Object.assign(environments[step], { OPENAI_BASE_URL: server.baseURL });
    mocks.secrets
      .on(GetSecretValueCommand)
      .rejectsOnce(Object.assign(new Error('User is not authorized to perform: secretsmanager:GetSecretValue'), { name: 'AccessDeniedException', $metadata: { httpStatusCode: 400 } }))
      .resolves({ SecretString: JSON.stringify({ OPENAI_API_KEY: 'sk-test' }), ARN: SECRET_ARN, Name: 'sre-agent/model' });
    vi.resetModules();
    const { handler: start } = (await import('../../functions/start-investigation.ts')) as { handler: Handler };
    const { handler: plan } = (await import('../../functions/plan.ts')) as { handler: Handler };
    const { handler: callModel } = (await import('../../functions/call-model.ts')) as { handler: Handler };
    setEnvironment({ ...runtimeEnvironment(), ...environments['start-investigation'] });
    let state = await start({ input: { trigger: scenario.trigger, investigationId: 'inv-retry', toolSource: { kind: 'scenario-replay', snapshot: 'env-retry' } }, maxIterations: 4 }, lambdaContext);
    setEnvironment({ ...runtimeEnvironment(), ...environments.plan });
    state = await plan(state, lambdaContext);
    setEnvironment({ ...runtimeEnvironment(), ...environments['call-model'] });
    await expect(callModel(state, lambdaContext)).rejects.toThrow(/GetSecretValue|not authorized|secret/i);
    expect(server.requests).toHaveLength(0);
    const next = (await callModel(state, lambdaContext)) as ControlState;
    expect(next.next).toBe('final');
    expect(server.requests.length).toBeGreaterThan(0);
  });
});
