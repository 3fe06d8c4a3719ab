import type { ModelPort, ModelRequest, ModelResponse } from '../../lib/model/port.ts';

type Reply = Partial<Omit<ModelResponse, 'usage' | 'model'>>;

/** A model whose replies a test writes; it records every request it receives. */
export class ScriptedModel implements ModelPort {
  readonly name = 'scripted';
  readonly requests: ModelRequest[] = [];

  constructor(private readonly reply: (request: ModelRequest, turn: number) => Reply | Promise<Reply>) {}

  async complete(request: ModelRequest): Promise<ModelResponse> {
    this.requests.push(request);
    const reply = await this.reply(request, this.requests.length);
    const toolCalls = reply.toolCalls ?? [];
    return {
      text: reply.text ?? '',
      toolCalls,
      stopReason: reply.stopReason ?? (toolCalls.length > 0 ? 'tool_use' : 'end_turn'),
      usage: { inputTokens: 100, outputTokens: 10, cachedTokens: 0 },
      model: this.name,
    };
  }
}

export const finalAnswer = (service: string) =>
  JSON.stringify({
    incident: true,
    rootCause: { service, category: 'deploy', summary: `${service} broke after a deploy` },
    confidence: 0.8,
    evidence: [{ ref: 'E1', summary: 'alarms' }],
    remediation: [{ action: 'rollback', target: service, detail: 'previous version' }],
  });
