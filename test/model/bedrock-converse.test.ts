import {
  AccessDeniedException,
  BedrockRuntimeClient,
  ConverseCommand,
  InternalServerException,
  ModelTimeoutException,
  ResourceNotFoundException,
  ServiceUnavailableException,
  ThrottlingException,
  ValidationException,
} from '@aws-sdk/client-bedrock-runtime';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { modelResponse } from '../../lib/model/port.ts';
import { BedrockConverseModel } from '../../lib/model/providers/bedrock-converse.ts';
import { classifyBedrockError, ModelCallError } from '../../lib/model/providers/errors.ts';
import { finalJson, finalTurn, firstTurn } from './fixtures.ts';

const client = new BedrockRuntimeClient({ region: 'us-east-1', credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' } });
const bedrock = mockClient(client);
afterEach(() => bedrock.reset());

const modelId = 'us.anthropic.claude-sonnet-4-20250514-v1:0';
const model = new BedrockConverseModel({ model: modelId, client });
const metadata = { $metadata: {} };

describe('BedrockConverseModel over ConverseCommand', () => {
  it('sends toolConfig and system blocks, and maps a toolUse turn with usage', async () => {
    bedrock.on(ConverseCommand).resolves({
      output: {
        message: {
          role: 'assistant',
          content: [{ text: 'Checking alarms.' }, { toolUse: { toolUseId: 'tooluse_1', name: 'list_alarms', input: { service: 'checkout' } } }],
        },
      },
      stopReason: 'tool_use',
      usage: { inputTokens: 400, outputTokens: 30, totalTokens: 1430, cacheReadInputTokens: 1000 },
      metrics: { latencyMs: 900 },
    });
    const response = await model.complete(firstTurn);

    expect(modelResponse.parse(response)).toEqual(response);
    expect(response).toEqual({
      text: 'Checking alarms.',
      toolCalls: [{ id: 'tooluse_1', name: 'list_alarms', arguments: { service: 'checkout' } }],
      usage: { inputTokens: 1400, outputTokens: 30, cachedTokens: 1000 },
      stopReason: 'tool_use',
      model: modelId,
    });
    const input = bedrock.commandCalls(ConverseCommand)[0]!.args[0].input;
    expect(input.modelId).toBe(modelId);
    expect(input.system).toEqual([{ text: 'You are an SRE agent.' }]);
    expect(input.messages).toEqual([{ role: 'user', content: [{ text: 'Investigate: checkout errors spiked at 10:02.' }] }]);
    expect(input.inferenceConfig).toEqual({ maxTokens: 4096 });
    expect(input.toolConfig).toEqual({
      tools: [
        {
          toolSpec: {
            name: 'list_alarms',
            description: 'Lists CloudWatch alarms in ALARM state.',
            inputSchema: { json: { type: 'object', properties: { service: { type: 'string' } }, required: ['service'] } },
          },
        },
        {
          toolSpec: {
            name: 'query_logs',
            description: 'Runs a Logs Insights query.',
            inputSchema: { json: { type: 'object', properties: { query: { type: 'string' }, minutes: { type: 'integer' } }, required: ['query'] } },
          },
        },
      ],
    });
  });

  it('sends toolUse/toolResult blocks in alternating turns and keeps a toolConfig for them when tools are refused', async () => {
    bedrock.on(ConverseCommand).resolves({
      output: { message: { role: 'assistant', content: [{ text: finalJson }] } },
      stopReason: 'end_turn',
      usage: { inputTokens: 2000, outputTokens: 120, totalTokens: 2120 },
      metrics: { latencyMs: 1200 },
    });
    const response = await model.complete(finalTurn);

    expect(response).toEqual({ text: finalJson, toolCalls: [], usage: { inputTokens: 2000, outputTokens: 120, cachedTokens: 0 }, stopReason: 'end_turn', model: modelId });
    const input = bedrock.commandCalls(ConverseCommand)[0]!.args[0].input;
    expect(input.messages).toEqual([
      { role: 'user', content: [{ text: 'Investigate: checkout errors spiked at 10:02.' }] },
      {
        role: 'assistant',
        content: [
          { text: 'Checking alarms and logs.' },
          { toolUse: { toolUseId: 'call_1', name: 'list_alarms', input: { service: 'checkout' } } },
          { toolUse: { toolUseId: 'call_2', name: 'query_logs', input: { query: 'fields @message | filter level="ERROR"' } } },
        ],
      },
      {
        role: 'user',
        content: [
          { toolResult: { toolUseId: 'call_1', content: [{ text: finalTurn.messages[2]!.content }] } },
          { toolResult: { toolUseId: 'call_2', content: [{ text: finalTurn.messages[3]!.content }] } },
          { text: 'Give your final answer as JSON now.' },
        ],
      },
    ]);
    expect(input.toolConfig?.tools?.map((tool) => tool.toolSpec?.name)).toEqual(['list_alarms', 'query_logs']);
    expect(input.toolConfig?.toolChoice).toBeUndefined();
  });

  it('omits toolConfig with toolChoice none when the history has no tool blocks, and drops tool calls it gets anyway', async () => {
    bedrock.on(ConverseCommand).resolves({
      output: { message: { role: 'assistant', content: [{ toolUse: { toolUseId: 't', name: 'list_alarms', input: {} } }] } },
      stopReason: 'tool_use',
      usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 },
      metrics: { latencyMs: 1 },
    });
    const response = await model.complete({ ...firstTurn, toolChoice: 'none' });
    expect(bedrock.commandCalls(ConverseCommand)[0]!.args[0].input.toolConfig).toBeUndefined();
    expect(response.toolCalls).toEqual([]);
    expect(response.stopReason).toBe('end_turn');
  });

  it('maps max_tokens', async () => {
    bedrock.on(ConverseCommand).resolves({
      output: { message: { role: 'assistant', content: [{ text: '{"inc' }] } },
      stopReason: 'max_tokens',
      usage: { inputTokens: 10, outputTokens: 4096, totalTokens: 4106 },
      metrics: { latencyMs: 1 },
    });
    expect((await model.complete(firstTurn)).stopReason).toBe('max_tokens');
  });

  describe('classifies failures', () => {
    const cases = [
      [new ThrottlingException({ message: 'Too many requests, please wait before trying again.', ...metadata }), 'rate-limit'],
      [new ServiceUnavailableException({ message: 'Service unavailable', ...metadata }), 'overloaded'],
      [new ModelTimeoutException({ message: 'Model has timed out in processing the request', ...metadata }), 'timeout'],
      [new InternalServerException({ message: 'Internal error', ...metadata }), 'server'],
      [new AccessDeniedException({ message: "You don't have access to the model with the specified model ID.", ...metadata }), 'auth'],
      [new ValidationException({ message: 'Input is too long for requested model.', ...metadata }), 'context-overflow'],
      [new ValidationException({ message: 'The model returned the following errors: prompt is too long: 210000 tokens > 200000 maximum', ...metadata }), 'context-overflow'],
      [new ValidationException({ message: 'The provided model identifier is invalid.', ...metadata }), 'invalid-request'],
      [new ResourceNotFoundException({ message: 'Model not found', ...metadata }), 'invalid-request'],
    ] as const;

    it.each(cases)('%s is %s', async (exception, kind) => {
      bedrock.on(ConverseCommand).rejects(exception);
      const error = await model.complete(firstTurn).then(
        () => undefined,
        (reason: unknown) => reason,
      );
      expect(error).toBeInstanceOf(ModelCallError);
      expect(error).toMatchObject({ kind, provider: `bedrock:${modelId}`, code: exception.name });
    });

    it('an access-denied error names the credentials to check', () => {
      const error = classifyBedrockError(new AccessDeniedException({ message: 'denied', ...metadata }), 'bedrock:x');
      expect(error.message).toMatch(/AWS credentials/);
      expect(error.setting).toMatch(/bedrock:InvokeModel/);
    });

    it('aborts and network failures are classified too', () => {
      const abort = Object.assign(new Error('Request aborted'), { name: 'AbortError' });
      expect(classifyBedrockError(abort, 'bedrock:x').kind).toBe('timeout');
      const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
      expect(classifyBedrockError(refused, 'bedrock:x').kind).toBe('server');
      expect(classifyBedrockError(new Error('boom'), 'bedrock:x').kind).toBe('unknown');
    });
  });
});
