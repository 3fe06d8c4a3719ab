import { BedrockRuntimeClient, ConverseCommand } from '@aws-sdk/client-bedrock-runtime';
import { GetSecretValueCommand, ResourceNotFoundException, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { budgetExhausted } from '../../lib/model/config/budget.ts';
import { createModelFromConfig } from '../../lib/model/config/create-model.ts';
import { ModelConfigError, modelConfigFromEnv, type ModelConfig } from '../../lib/model/config/model-config.ts';
import { SecretCache } from '../../lib/model/config/secrets.ts';
import { SecretReadError } from '../../lib/model/providers/errors.ts';
import { ResilientModel } from '../../lib/model/resilience/resilient-model.ts';
import { openaiReply, startFakeOpenAI, type FakeModelServer } from '../support/fake-model-servers.ts';
import { finalJson, firstTurn } from './fixtures.ts';

const secretsClient = new SecretsManagerClient({ region: 'us-east-1', credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' } });
const secretsManager = mockClient(secretsClient);
const bedrockClient = new BedrockRuntimeClient({ region: 'us-east-1', credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' } });
const bedrock = mockClient(bedrockClient);

let server: FakeModelServer | undefined;
afterEach(async () => {
  vi.useRealTimers();
  secretsManager.reset();
  bedrock.reset();
  await server?.close();
  server = undefined;
});

const configError = (env: Record<string, string>): ModelConfigError => {
  try {
    modelConfigFromEnv(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ModelConfigError);
    return error as ModelConfigError;
  }
  throw new Error('expected a configuration error');
};

const secretArn = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:sre-agent/model-keys-AbCdEf';

describe('modelConfigFromEnv', () => {
  it('defaults to offline with the documented budgets', () => {
    const config = modelConfigFromEnv({});
    expect(config).toMatchObject({
      provider: 'offline',
      model: undefined,
      fallbacks: [],
      secretTtlMs: 300_000,
      callTimeoutMs: 60_000,
      maxAttempts: 4,
      maxOutputTokens: 4096,
      budget: { maxModelCalls: 30, maxTokens: 1_000_000, maxCostUsd: 2 },
    });
  });

  it('reads every variable, treating blank values as unset', () => {
    const config = modelConfigFromEnv({
      SRE_AGENT_MODEL_PROVIDER: 'openai',
      SRE_AGENT_MODEL: ' gpt-4o ',
      SRE_AGENT_MODEL_BASE_URL: 'http://127.0.0.1:4000/v1',
      SRE_AGENT_FALLBACK: 'anthropic:claude-3-5-haiku-latest, bedrock:anthropic.claude-3-5-sonnet-20240620-v1:0',
      OPENAI_API_KEY: 'sk-1',
      ANTHROPIC_API_KEY: '  ',
      AWS_REGION: 'eu-west-1',
      SRE_AGENT_MAX_MODEL_CALLS: '12',
      SRE_AGENT_MAX_TOKENS: '200000',
      SRE_AGENT_MAX_COST_USD: '0.5',
      SRE_AGENT_CALL_TIMEOUT_MS: '30000',
      SRE_AGENT_PRICES: '{"my-local-model": {"input": 0, "output": 0}}',
    });
    expect(config).toMatchObject({
      provider: 'openai',
      model: 'gpt-4o',
      baseUrl: 'http://127.0.0.1:4000/v1',
      fallbacks: [
        { provider: 'anthropic', model: 'claude-3-5-haiku-latest' },
        { provider: 'bedrock', model: 'anthropic.claude-3-5-sonnet-20240620-v1:0' },
      ],
      openaiApiKey: 'sk-1',
      anthropicApiKey: undefined,
      awsRegion: 'eu-west-1',
      callTimeoutMs: 30_000,
      budget: { maxModelCalls: 12, maxTokens: 200_000, maxCostUsd: 0.5 },
    });
    expect(config.prices['my-local-model']).toEqual({ input: 0, output: 0 });
    expect(config.prices['gpt-4o']).toBeDefined();
  });

  it.each([
    ['SRE_AGENT_MODEL_PROVIDER', 'gemini'],
    ['SRE_AGENT_MAX_MODEL_CALLS', 'ten'],
    ['SRE_AGENT_MAX_TOKENS', '1.5'],
    ['SRE_AGENT_MAX_COST_USD', '-1'],
    ['SRE_AGENT_CALL_TIMEOUT_MS', '0'],
    ['SRE_AGENT_MODEL_BASE_URL', 'localhost:11434'],
    ['SRE_AGENT_FALLBACK', 'anthropic'],
    ['SRE_AGENT_FALLBACK', 'cohere:command-r'],
    ['AWS_REGION', 'Ireland'],
    ['SRE_AGENT_PRICES', '{not json'],
    ['SRE_AGENT_PRICES', '{"gpt-4o": {"input": "cheap"}}'],
  ])('an invalid %s=%s is an error naming the variable', (name, value) => {
    const error = configError({ [name]: value });
    expect(error.settings).toEqual([name]);
    expect(error.message).toContain(`${name}:`);
  });

  it('names every bad variable at once', () => {
    const error = configError({ SRE_AGENT_MODEL_PROVIDER: 'x', SRE_AGENT_MAX_MODEL_CALLS: 'y' });
    expect(error.settings).toEqual(['SRE_AGENT_MODEL_PROVIDER', 'SRE_AGENT_MAX_MODEL_CALLS']);
  });
});

describe('createModelFromConfig', () => {
  const config = (env: Record<string, string>): ModelConfig => modelConfigFromEnv(env);
  const noSleep = { sleep: async () => undefined, random: () => 0.5 };

  it('returns offline for the offline provider', async () => {
    expect(await createModelFromConfig(config({}))).toBe('offline');
  });

  it('a missing key names the setting', async () => {
    await expect(createModelFromConfig(config({ SRE_AGENT_MODEL_PROVIDER: 'openai' }))).rejects.toThrow(
      'SRE_AGENT_MODEL_PROVIDER=openai needs OPENAI_API_KEY (or SRE_AGENT_MODEL_SECRET_ARN on AWS)',
    );
    await expect(createModelFromConfig(config({ SRE_AGENT_MODEL_PROVIDER: 'anthropic' }))).rejects.toThrow(
      'SRE_AGENT_MODEL_PROVIDER=anthropic needs ANTHROPIC_API_KEY (or SRE_AGENT_MODEL_SECRET_ARN on AWS)',
    );
    const error = await createModelFromConfig(config({ SRE_AGENT_MODEL_PROVIDER: 'openai', OPENAI_API_KEY: 'sk', SRE_AGENT_FALLBACK: 'anthropic:claude-3-5-haiku-latest' })).catch(
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(ModelConfigError);
    expect((error as ModelConfigError).message).toBe('SRE_AGENT_FALLBACK entry anthropic:claude-3-5-haiku-latest needs ANTHROPIC_API_KEY (or SRE_AGENT_MODEL_SECRET_ARN on AWS)');
    expect((error as ModelConfigError).settings).toEqual(['ANTHROPIC_API_KEY']);
  });

  it('bedrock needs a model id', async () => {
    await expect(createModelFromConfig(config({ SRE_AGENT_MODEL_PROVIDER: 'bedrock' }))).rejects.toThrow(/SRE_AGENT_MODEL_PROVIDER=bedrock needs SRE_AGENT_MODEL/);
  });

  it('builds a resilient chain that talks to an OpenAI-compatible endpoint with the env key', async () => {
    server = await startFakeOpenAI(() => openaiReply.text(finalJson));
    const model = await createModelFromConfig(
      config({ SRE_AGENT_MODEL_PROVIDER: 'openai', SRE_AGENT_MODEL: 'llama3.1', SRE_AGENT_MODEL_BASE_URL: server.baseURL, OPENAI_API_KEY: 'sk-env', SRE_AGENT_FALLBACK: 'bedrock:amazon.nova-pro-v1:0' }),
      { bedrockClient, resilience: noSleep },
    );
    expect(model).toBeInstanceOf(ResilientModel);
    const resilient = model as ResilientModel;
    expect(resilient.models.map((link) => link.name)).toEqual(['openai:llama3.1', 'bedrock:amazon.nova-pro-v1:0']);
    expect((await resilient.complete(firstTurn)).text).toBe(finalJson);
    expect(server.requests[0]!.headers.authorization).toBe('Bearer sk-env');
    expect(server.requests[0]!.body.model).toBe('llama3.1');
    expect(server.requests[0]!.body.max_tokens).toBe(4096);
  });

  it('lets a local OpenAI-compatible server go without a key', async () => {
    server = await startFakeOpenAI(() => openaiReply.text('ok'));
    const model = (await createModelFromConfig(config({ SRE_AGENT_MODEL_PROVIDER: 'openai', SRE_AGENT_MODEL_BASE_URL: server.baseURL }))) as ResilientModel;
    expect((await model.complete(firstTurn)).text).toBe('ok');
  });

  it('falls back to bedrock when the primary is down', async () => {
    server = await startFakeOpenAI(() => openaiReply.serverError());
    bedrock.on(ConverseCommand).resolves({
      output: { message: { role: 'assistant', content: [{ text: finalJson }] } },
      stopReason: 'end_turn',
      usage: { inputTokens: 5, outputTokens: 5, totalTokens: 10 },
      metrics: { latencyMs: 1 },
    });
    const model = (await createModelFromConfig(
      config({ SRE_AGENT_MODEL_PROVIDER: 'openai', SRE_AGENT_MODEL_BASE_URL: server.baseURL, SRE_AGENT_FALLBACK: 'bedrock:amazon.nova-pro-v1:0', SRE_AGENT_MAX_ATTEMPTS: '2' }),
      { bedrockClient, resilience: noSleep },
    )) as ResilientModel;
    const response = await model.complete(firstTurn);
    expect(response.model).toBe('amazon.nova-pro-v1:0');
    expect(server.requests).toHaveLength(2);
  });

  it('reads keys from the Secrets Manager secret and picks up a rotated key after the TTL', async () => {
    server = await startFakeOpenAI(() => openaiReply.text(finalJson));
    secretsManager.on(GetSecretValueCommand, { SecretId: secretArn }).resolvesOnce({ SecretString: JSON.stringify({ OPENAI_API_KEY: 'sk-first' }) }).resolves({ SecretString: JSON.stringify({ OPENAI_API_KEY: 'sk-rotated' }) });
    // Powertools times its cache with Date; only Date is faked, so the HTTP server runs as usual.
    vi.useFakeTimers({ toFake: ['Date'], now: 1_000_000 });
    const secrets = new SecretCache({ client: secretsClient, ttlMs: 60_000 });
    const model = (await createModelFromConfig(
      config({ SRE_AGENT_MODEL_PROVIDER: 'openai', SRE_AGENT_MODEL_BASE_URL: server.baseURL, SRE_AGENT_MODEL_SECRET_ARN: secretArn }),
      { secrets },
    )) as ResilientModel;
    await model.complete(firstTurn);
    vi.advanceTimersByTime(59_000);
    await model.complete(firstTurn);
    vi.advanceTimersByTime(2_000);
    await model.complete(firstTurn);
    expect(server.requests.map((request) => request.headers.authorization)).toEqual(['Bearer sk-first', 'Bearer sk-first', 'Bearer sk-rotated']);
    expect(secretsManager.commandCalls(GetSecretValueCommand)).toHaveLength(2);
  });

  it('a secret without the key names both settings', async () => {
    secretsManager.on(GetSecretValueCommand).resolves({ SecretString: JSON.stringify({ OPENAI_API_KEY: 'sk' }) });
    await expect(
      createModelFromConfig(config({ SRE_AGENT_MODEL_PROVIDER: 'anthropic', SRE_AGENT_MODEL_SECRET_ARN: secretArn }), { secretsManager: secretsClient }),
    ).rejects.toThrow(`SRE_AGENT_MODEL_PROVIDER=anthropic needs ANTHROPIC_API_KEY, which the secret SRE_AGENT_MODEL_SECRET_ARN=${secretArn} does not hold either`);
  });
});

describe('SecretCache', () => {
  it('reuses a secret for its max age (default 5 minutes) and rereads it after', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: 0 });
    secretsManager.on(GetSecretValueCommand).resolves({ SecretString: '{"OPENAI_API_KEY":"sk-1","ANTHROPIC_API_KEY":"sk-ant","limit":3}' });
    const cache = new SecretCache({ client: secretsClient });
    expect(await cache.getJson(secretArn)).toEqual({ OPENAI_API_KEY: 'sk-1', ANTHROPIC_API_KEY: 'sk-ant' });
    vi.setSystemTime(300_000);
    expect(await cache.getValue(secretArn, 'ANTHROPIC_API_KEY')).toBe('sk-ant');
    expect(await cache.getValue(secretArn, 'NO_SUCH_KEY')).toBeUndefined();
    expect(secretsManager.commandCalls(GetSecretValueCommand)).toHaveLength(1);
    vi.setSystemTime(300_001);
    await cache.getJson(secretArn);
    expect(secretsManager.commandCalls(GetSecretValueCommand)).toHaveLength(2);
  });

  it('with a max age of 0 reads the secret on every use, and decodes a binary secret', async () => {
    secretsManager.on(GetSecretValueCommand).resolves({ SecretBinary: new TextEncoder().encode('{"OPENAI_API_KEY":" sk-bin "}') });
    const cache = new SecretCache({ client: secretsClient, ttlMs: 0 });
    expect(await cache.getValue(secretArn, 'OPENAI_API_KEY')).toBe('sk-bin');
    expect(await cache.getValue(secretArn, 'OPENAI_API_KEY')).toBe('sk-bin');
    expect(secretsManager.commandCalls(GetSecretValueCommand)).toHaveLength(2);
  });

  it('serves the last good value when a refresh fails, and names the setting when there is none', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: 0 });
    const cache = new SecretCache({ client: secretsClient, ttlMs: 1_000 });
    secretsManager.on(GetSecretValueCommand).resolvesOnce({ SecretString: '{"OPENAI_API_KEY":"sk-1"}' }).rejects(new ResourceNotFoundException({ message: 'gone', $metadata: {} }));
    expect(await cache.getValue(secretArn, 'OPENAI_API_KEY')).toBe('sk-1');
    vi.setSystemTime(1_001);
    expect(await cache.getValue(secretArn, 'OPENAI_API_KEY')).toBe('sk-1');
    expect(secretsManager.commandCalls(GetSecretValueCommand)).toHaveLength(2);

    const empty = new SecretCache({ client: secretsClient });
    const error = await empty.getJson('other').catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(SecretReadError);
    expect((error as SecretReadError).message).toBe('could not read the secret SRE_AGENT_MODEL_SECRET_ARN=other (ResourceNotFoundException: gone)');
  });

  it('rejects a secret that is not a JSON object, saying what it should be', async () => {
    secretsManager.on(GetSecretValueCommand).resolvesOnce({ SecretString: 'sk-plain-string' }).resolves({ SecretString: '["sk"]' });
    await expect(new SecretCache({ client: secretsClient }).getJson(secretArn)).rejects.toThrow(/is not JSON; expected \{"OPENAI_API_KEY"/);
    await expect(new SecretCache({ client: secretsClient }).getJson(secretArn)).rejects.toThrow(/is not a JSON object; expected \{"OPENAI_API_KEY"/);
  });
});

describe('budgetExhausted', () => {
  const budget = { maxModelCalls: 10, maxTokens: 1000, maxCostUsd: 0.5 };
  const usage = { modelCalls: 1, toolCalls: 0, inputTokens: 100, outputTokens: 10, cachedTokens: 0, costUsd: 0.01 };
  it('names the budget reached', () => {
    expect(budgetExhausted(usage, budget)).toBeUndefined();
    expect(budgetExhausted({ ...usage, modelCalls: 10 }, budget)).toMatch(/^SRE_AGENT_MAX_MODEL_CALLS=10/);
    expect(budgetExhausted({ ...usage, inputTokens: 995 }, budget)).toMatch(/^SRE_AGENT_MAX_TOKENS=1000/);
    expect(budgetExhausted({ ...usage, costUsd: 0.5 }, budget)).toMatch(/^SRE_AGENT_MAX_COST_USD=0.5/);
  });
});
