import type { ModelRequest, ModelResponse, ToolSpec } from '../../lib/model/port.ts';

export const tools: ToolSpec[] = [
  {
    name: 'list_alarms',
    description: 'Lists CloudWatch alarms in ALARM state.',
    inputSchema: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { service: { type: 'string' } }, required: ['service'] },
  },
  {
    name: 'query_logs',
    description: 'Runs a Logs Insights query.',
    inputSchema: { type: 'object', properties: { query: { type: 'string' }, minutes: { type: 'integer' } }, required: ['query'] },
  },
];

/** The opening turn: the brief, tools offered. */
export const firstTurn: ModelRequest = {
  system: 'You are an SRE agent.',
  messages: [{ role: 'user', content: 'Investigate: checkout errors spiked at 10:02.' }],
  tools,
  toolChoice: 'auto',
};

/** A later turn: two tool calls answered, then the final-answer nudge with tools withdrawn. */
export const finalTurn: ModelRequest = {
  system: 'You are an SRE agent.',
  messages: [
    { role: 'user', content: 'Investigate: checkout errors spiked at 10:02.' },
    {
      role: 'assistant',
      content: 'Checking alarms and logs.',
      toolCalls: [
        { id: 'call_1', name: 'list_alarms', arguments: { service: 'checkout' } },
        { id: 'call_2', name: 'query_logs', arguments: { query: 'fields @message | filter level="ERROR"' } },
      ],
    },
    { role: 'tool', toolCallId: 'call_1', name: 'list_alarms', content: '{"ref":"E1","summary":"1 alarm","data":[{"name":"checkout-5xx"}]}' },
    { role: 'tool', toolCallId: 'call_2', name: 'query_logs', content: '{"ref":"E2","summary":"42 errors","data":["TypeError"]}' },
    { role: 'user', content: 'Give your final answer as JSON now.' },
  ],
  tools: [],
  toolChoice: 'none',
};

export const finalJson = JSON.stringify({ incident: true, rootCause: { service: 'checkout', category: 'deploy', summary: 'bad deploy' }, confidence: 0.8 });

export const okResponse = (text = finalJson, model = 'test-model'): ModelResponse => ({
  text,
  toolCalls: [],
  usage: { inputTokens: 10, outputTokens: 5, cachedTokens: 0 },
  stopReason: 'end_turn',
  model,
});
