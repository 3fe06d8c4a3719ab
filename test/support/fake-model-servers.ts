import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
export { seededRandom } from '../../lib/random/seeded-random.ts';

/** A request as the fake server received it; `body` is the parsed JSON. */
export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body; `any` so tests can read wire fields freely. */
  body: any;
}

/** What the server does with one request. */
export type FakeReply =
  | { status?: number; body: unknown; headers?: Record<string, string>; delayMs?: number }
  /** Never answers (until the client gives up or the server closes). */
  | { hang: true }
  /** Drops the connection without a response. */
  | { drop: true };

export type Script = (request: ReceivedRequest, index: number) => FakeReply | Promise<FakeReply>;

type Flavor = 'openai' | 'anthropic';

const routes: Record<Flavor, string> = { openai: '/v1/chat/completions', anthropic: '/v1/messages' };

/**
 * A local HTTP server speaking the OpenAI Chat Completions or Anthropic Messages wire format on
 * 127.0.0.1, answering each request as a script says, and recording every request it receives.
 */
export class FakeModelServer {
  readonly requests: ReceivedRequest[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();

  private constructor(
    private readonly server: Server,
    private readonly flavor: Flavor,
    private script: Script,
  ) {}

  static async start(flavor: Flavor, script: Script): Promise<FakeModelServer> {
    const server = createServer();
    const fake = new FakeModelServer(server, flavor, script);
    server.on('request', (request, response) => void fake.handle(request, response));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return fake;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  get origin(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The base URL the SDK takes: `…/v1` for OpenAI, the origin for Anthropic. */
  get baseURL(): string {
    return this.flavor === 'openai' ? `${this.origin}/v1` : this.origin;
  }

  /** Replaces the script for the following requests. */
  setScript(script: Script): void {
    this.script = script;
  }

  async close(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    let body: unknown;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      body = text;
    }
    const path = (request.url ?? '/').split('?')[0]!;
    if (request.method !== 'POST' || path !== routes[this.flavor]) {
      send(response, { status: 404, body: { error: { type: 'not_found_error', message: `no route ${request.method} ${path}` } } });
      return;
    }
    const received: ReceivedRequest = { method: request.method, path, headers: request.headers, body };
    const index = this.requests.length;
    this.requests.push(received);
    let reply: FakeReply;
    try {
      reply = await this.script(received, index);
    } catch (error) {
      reply = { status: 500, body: { error: { type: 'api_error', message: `script failed: ${String(error)}` } } };
    }
    if ('hang' in reply) return;
    if ('drop' in reply) {
      request.socket.destroy();
      return;
    }
    if (reply.delayMs !== undefined && reply.delayMs > 0) {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        send(response, reply);
      }, reply.delayMs);
      this.timers.add(timer);
      return;
    }
    send(response, reply);
  }
}

const send = (response: ServerResponse, reply: { status?: number; body: unknown; headers?: Record<string, string> }): void => {
  if (response.destroyed || response.writableEnded) return;
  const payload = JSON.stringify(reply.body);
  response.writeHead(reply.status ?? 200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), ...reply.headers });
  response.end(payload);
};

export const startFakeOpenAI = (script: Script): Promise<FakeModelServer> => FakeModelServer.start('openai', script);
export const startFakeAnthropic = (script: Script): Promise<FakeModelServer> => FakeModelServer.start('anthropic', script);

/** Replies in order; the last one repeats. */
export const inSequence =
  (...replies: FakeReply[]): Script =>
  (_request, index) =>
    replies[Math.min(index, replies.length - 1)]!;


/** A port on 127.0.0.1 that nothing listens on (for connection-refused tests). */
export const closedPortURL = async (path = ''): Promise<string> => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}${path}`;
};

// ---------- OpenAI Chat Completions replies ----------

export interface OpenAIUsage {
  prompt_tokens: number;
  completion_tokens: number;
  cached_tokens?: number;
}

const openaiUsage = (usage: OpenAIUsage) => ({
  prompt_tokens: usage.prompt_tokens,
  completion_tokens: usage.completion_tokens,
  total_tokens: usage.prompt_tokens + usage.completion_tokens,
  prompt_tokens_details: { cached_tokens: usage.cached_tokens ?? 0 },
});

const completion = (message: Record<string, unknown>, finishReason: string, usage: OpenAIUsage, model: string) => ({
  id: `chatcmpl-${Math.random().toString(36).slice(2)}`,
  object: 'chat.completion',
  created: 1_700_000_000,
  model,
  choices: [{ index: 0, message: { role: 'assistant', refusal: null, ...message }, finish_reason: finishReason, logprobs: null }],
  usage: openaiUsage(usage),
});

export const openaiReply = {
  /** Tool calls; `arguments` may be a raw string to test malformed JSON. */
  toolCalls: (
    calls: { id: string; name: string; arguments: string | Record<string, unknown> }[],
    options: { usage?: OpenAIUsage; model?: string; text?: string | null; finishReason?: string } = {},
  ): FakeReply => ({
    body: completion(
      {
        content: options.text ?? null,
        tool_calls: calls.map((call) => ({
          id: call.id,
          type: 'function',
          function: { name: call.name, arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments) },
        })),
      },
      options.finishReason ?? 'tool_calls',
      options.usage ?? { prompt_tokens: 100, completion_tokens: 20 },
      options.model ?? 'gpt-4o-2024-08-06',
    ),
  }),
  text: (text: string, options: { usage?: OpenAIUsage; model?: string; finishReason?: string } = {}): FakeReply => ({
    body: completion({ content: text }, options.finishReason ?? 'stop', options.usage ?? { prompt_tokens: 100, completion_tokens: 20 }, options.model ?? 'gpt-4o-2024-08-06'),
  }),
  error: (status: number, message: string, options: { type?: string; code?: string | null; headers?: Record<string, string> } = {}): FakeReply => ({
    status,
    body: { error: { message, type: options.type ?? 'invalid_request_error', param: null, code: options.code ?? null } },
    ...(options.headers ? { headers: options.headers } : {}),
  }),
  rateLimited: (headers: Record<string, string> = {}): FakeReply =>
    openaiReply.error(429, 'Rate limit reached for requests', { type: 'requests', code: 'rate_limit_exceeded', headers }),
  serverError: (): FakeReply => openaiReply.error(500, 'The server had an error while processing your request.', { type: 'server_error' }),
};

// ---------- Anthropic Messages replies ----------

export interface AnthropicUsage {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens?: number;
  cache_creation_input_tokens?: number;
}

const anthropicMessage = (content: unknown[], stopReason: string, usage: AnthropicUsage, model: string) => ({
  id: `msg_${Math.random().toString(36).slice(2)}`,
  type: 'message',
  role: 'assistant',
  model,
  content,
  stop_reason: stopReason,
  stop_sequence: null,
  usage: {
    input_tokens: usage.input_tokens,
    output_tokens: usage.output_tokens,
    cache_read_input_tokens: usage.cache_read_input_tokens ?? 0,
    cache_creation_input_tokens: usage.cache_creation_input_tokens ?? 0,
  },
});

export const anthropicReply = {
  toolUse: (
    calls: { id: string; name: string; input: unknown }[],
    options: { usage?: AnthropicUsage; model?: string; text?: string } = {},
  ): FakeReply => ({
    body: anthropicMessage(
      [...(options.text ? [{ type: 'text', text: options.text }] : []), ...calls.map((call) => ({ type: 'tool_use', id: call.id, name: call.name, input: call.input }))],
      'tool_use',
      options.usage ?? { input_tokens: 100, output_tokens: 20 },
      options.model ?? 'claude-sonnet-4-20250514',
    ),
  }),
  text: (text: string, options: { usage?: AnthropicUsage; model?: string; stopReason?: string } = {}): FakeReply => ({
    body: anthropicMessage([{ type: 'text', text }], options.stopReason ?? 'end_turn', options.usage ?? { input_tokens: 100, output_tokens: 20 }, options.model ?? 'claude-sonnet-4-20250514'),
  }),
  error: (status: number, type: string, message: string, headers?: Record<string, string>): FakeReply => ({
    status,
    body: { type: 'error', error: { type, message } },
    ...(headers ? { headers } : {}),
  }),
  overloaded: (): FakeReply => anthropicReply.error(529, 'overloaded_error', 'Overloaded'),
  rateLimited: (headers: Record<string, string> = {}): FakeReply => anthropicReply.error(429, 'rate_limit_error', 'Number of request tokens has exceeded your per-minute rate limit', headers),
  serverError: (): FakeReply => anthropicReply.error(500, 'api_error', 'Internal server error'),
};
