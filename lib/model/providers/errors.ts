import * as AnthropicSdk from '@anthropic-ai/sdk';
import * as OpenAISdk from 'openai';

/**
 * What went wrong with a model call, in the few kinds the resilience layer acts on:
 * - `rate-limit`, `server`, `overloaded`, `timeout`: transient; retried with backoff, then the next provider.
 * - `auth`: the credentials are missing, wrong or lack permission; fails fast and names the setting.
 * - `invalid-request`: the request itself is wrong (or the model id is unknown); fails fast.
 * - `context-overflow`: the conversation is too long for the model; shrunk once and retried.
 * - `unknown`: anything else; not retried, the next provider is tried.
 */
export const modelErrorKinds = ['rate-limit', 'server', 'overloaded', 'timeout', 'auth', 'invalid-request', 'context-overflow', 'unknown'] as const;
export type ModelErrorKind = (typeof modelErrorKinds)[number];

export interface ModelCallErrorOptions {
  kind: ModelErrorKind;
  /** The adapter's name, e.g. `openai:gpt-4o`. */
  provider: string;
  message: string;
  status?: number | undefined;
  /** The provider's own error code or type, e.g. `context_length_exceeded`, `ThrottlingException`. */
  code?: string | undefined;
  /** How long the provider asked us to wait (from `retry-after-ms` / `retry-after`). */
  retryAfterMs?: number | undefined;
  /** For `auth`: the setting an operator must fix, e.g. `OPENAI_API_KEY`. */
  setting?: string | undefined;
  cause?: unknown;
}

/** A classified model-provider failure. */
export class ModelCallError extends Error {
  override readonly name: string = 'ModelCallError';
  readonly kind: ModelErrorKind;
  readonly provider: string;
  readonly status: number | undefined;
  readonly code: string | undefined;
  readonly retryAfterMs: number | undefined;
  readonly setting: string | undefined;

  constructor(options: ModelCallErrorOptions) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.kind = options.kind;
    this.provider = options.provider;
    this.status = options.status;
    this.code = options.code;
    this.retryAfterMs = options.retryAfterMs;
    this.setting = options.setting;
  }
}

export const isModelCallError = (error: unknown): error is ModelCallError => error instanceof ModelCallError;

/** Kinds worth another attempt on the same provider. */
export const isTransient = (kind: ModelErrorKind): boolean =>
  kind === 'rate-limit' || kind === 'server' || kind === 'overloaded' || kind === 'timeout';

const contextOverflowPattern =
  /context[_ ]length|context window|maximum context|prompt is too long|input is too long|too many input tokens|input length and `?max_tokens`? exceed/i;

/** True when a provider's message says the conversation does not fit the model's context. */
export const mentionsContextOverflow = (text: string): boolean => contextOverflowPattern.test(text);

interface HeaderSource {
  get(name: string): string | null;
}

/**
 * The wait a response asks for: `retry-after-ms` (milliseconds), else `retry-after` in seconds or as an
 * HTTP date. Undefined when absent or unreadable; never negative.
 */
export const retryAfterFromHeaders = (headers: HeaderSource | undefined, now: () => number = Date.now): number | undefined => {
  if (!headers) return undefined;
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '') {
    const value = Number(ms);
    if (Number.isFinite(value) && value >= 0) return Math.round(value);
  }
  const after = headers.get('retry-after');
  if (after === null || after.trim() === '') return undefined;
  const seconds = Number(after);
  if (Number.isFinite(seconds)) return seconds >= 0 ? Math.round(seconds * 1000) : undefined;
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now());
};

const isAbortLike = (error: unknown): boolean =>
  error instanceof Error && (error.name === 'AbortError' || error.name === 'APIUserAbortError' || error.name === 'TimeoutError');

/** The description of the HTTP-ish parts an API error exposes. */
interface HttpFailure {
  provider: string;
  status: number;
  message: string;
  code?: string | undefined;
  type?: string | undefined;
  headers?: HeaderSource | undefined;
  setting: string;
  cause: unknown;
}

/** Shared status-code mapping for OpenAI-style and Anthropic-style HTTP APIs. */
const classifyHttp = (failure: HttpFailure): ModelCallError => {
  const { provider, status, message, code, type, setting, cause } = failure;
  const retryAfterMs = retryAfterFromHeaders(failure.headers);
  const base = { provider, status, code: code ?? type, retryAfterMs, cause };
  const tag = code ?? type;
  const described = `${provider} ${status}${tag ? ` ${tag}` : ''}: ${message}`;
  if (code === 'context_length_exceeded' || code === 'string_above_max_length' || status === 413 || ((status === 400 || status === 422) && mentionsContextOverflow(message))) {
    return new ModelCallError({ ...base, kind: 'context-overflow', message: `${described} (the conversation does not fit the model's context window)` });
  }
  if (code === 'insufficient_quota' || type === 'billing_error' || status === 402) {
    return new ModelCallError({ ...base, kind: 'auth', setting, message: `${described} (the account behind ${setting} has no quota or billing left)` });
  }
  if (status === 401 || status === 403 || type === 'authentication_error' || type === 'permission_error') {
    return new ModelCallError({ ...base, kind: 'auth', setting, message: `${described} (check ${setting})` });
  }
  if (status === 429 || type === 'rate_limit_error') return new ModelCallError({ ...base, kind: 'rate-limit', message: described });
  if (status === 529 || type === 'overloaded_error') return new ModelCallError({ ...base, kind: 'overloaded', message: described });
  if (status === 408 || status === 504 || type === 'timeout_error') return new ModelCallError({ ...base, kind: 'timeout', message: described });
  if (status === 409 || status >= 500) return new ModelCallError({ ...base, kind: 'server', message: described });
  if (status === 404) {
    return new ModelCallError({ ...base, kind: 'invalid-request', message: `${described} (is the model id in SRE_AGENT_MODEL right, and the base URL in SRE_AGENT_MODEL_BASE_URL?)` });
  }
  if (status >= 400 && status < 500) return new ModelCallError({ ...base, kind: 'invalid-request', message: described });
  return new ModelCallError({ ...base, kind: 'unknown', message: described });
};

/** Errors that are not HTTP responses: aborts, connection failures, secret lookups, bugs. */
const classifyTransport = (provider: string, error: unknown): ModelCallError | undefined => {
  if (isModelCallError(error)) return error;
  if (isAbortLike(error)) {
    return new ModelCallError({ kind: 'timeout', provider, message: `${provider}: the call was aborted or timed out`, cause: error });
  }
  if (error instanceof Error && error.cause instanceof SecretReadError) {
    return new ModelCallError({ kind: 'auth', provider, setting: error.cause.setting, message: `${provider}: ${error.cause.message}`, cause: error });
  }
  if (error instanceof SecretReadError) {
    return new ModelCallError({ kind: 'auth', provider, setting: error.setting, message: `${provider}: ${error.message}`, cause: error });
  }
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code === 'string' && /^(ECONNREFUSED|ECONNRESET|EPIPE|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|UND_ERR_\w+)$/.test(code)) {
    return new ModelCallError({ kind: code === 'ETIMEDOUT' ? 'timeout' : 'server', provider, code, message: `${provider}: network error ${code}`, cause: error });
  }
  return undefined;
};

/** A failure to read an API key from Secrets Manager; classified as `auth` naming the setting. */
export class SecretReadError extends Error {
  override readonly name = 'SecretReadError';
  constructor(
    message: string,
    readonly setting: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Classifies an error thrown by the `openai` SDK (or anything the adapter threw around it). */
export const classifyOpenAIError = (error: unknown, provider: string, setting = 'OPENAI_API_KEY'): ModelCallError => {
  if (error instanceof OpenAISdk.APIConnectionTimeoutError) {
    return new ModelCallError({ kind: 'timeout', provider, message: `${provider}: the request timed out`, cause: error });
  }
  if (error instanceof OpenAISdk.APIUserAbortError) {
    return new ModelCallError({ kind: 'timeout', provider, message: `${provider}: the call was aborted`, cause: error });
  }
  if (error instanceof OpenAISdk.APIConnectionError) {
    return new ModelCallError({ kind: 'server', provider, message: `${provider}: connection failed: ${messageOf(error.cause ?? error)}`, cause: error });
  }
  if (error instanceof OpenAISdk.APIError && typeof error.status === 'number') {
    const body = error.error as { message?: unknown } | undefined;
    const message = typeof body?.message === 'string' ? body.message : error.message;
    return classifyHttp({ provider, status: error.status, message, code: error.code ?? undefined, type: error.type, headers: error.headers, setting, cause: error });
  }
  return classifyTransport(provider, error) ?? new ModelCallError({ kind: 'unknown', provider, message: `${provider}: ${messageOf(error)}`, cause: error });
};

/** Classifies an error thrown by `@anthropic-ai/sdk`. */
export const classifyAnthropicError = (error: unknown, provider: string, setting = 'ANTHROPIC_API_KEY'): ModelCallError => {
  if (error instanceof AnthropicSdk.APIConnectionTimeoutError) {
    return new ModelCallError({ kind: 'timeout', provider, message: `${provider}: the request timed out`, cause: error });
  }
  if (error instanceof AnthropicSdk.APIUserAbortError) {
    return new ModelCallError({ kind: 'timeout', provider, message: `${provider}: the call was aborted`, cause: error });
  }
  if (error instanceof AnthropicSdk.APIConnectionError) {
    return new ModelCallError({ kind: 'server', provider, message: `${provider}: connection failed: ${messageOf(error.cause ?? error)}`, cause: error });
  }
  if (error instanceof AnthropicSdk.APIError && typeof error.status === 'number') {
    return classifyHttp({
      provider,
      status: error.status,
      message: error.apiMessage ?? error.message,
      code: error.errorCode ?? undefined,
      type: error.type ?? undefined,
      headers: error.headers,
      setting,
      cause: error,
    });
  }
  return classifyTransport(provider, error) ?? new ModelCallError({ kind: 'unknown', provider, message: `${provider}: ${messageOf(error)}`, cause: error });
};

/** Classifies an error thrown by the Bedrock runtime client (AWS SDK v3 service exceptions and transport errors). */
export const classifyBedrockError = (error: unknown, provider: string, setting = 'AWS credentials (the Lambda role, or AWS_PROFILE / AWS_ACCESS_KEY_ID locally) with bedrock:InvokeModel'): ModelCallError => {
  const transport = isModelCallError(error) || isAbortLike(error) ? classifyTransport(provider, error) : undefined;
  if (transport) return transport;
  const name = error instanceof Error ? error.name : '';
  const message = messageOf(error);
  const status = (error as { $metadata?: { httpStatusCode?: number } } | undefined)?.$metadata?.httpStatusCode;
  const base = { provider, status, code: name || undefined, cause: error };
  const described = `${provider} ${name || 'error'}: ${message}`;
  switch (name) {
    case 'ThrottlingException':
    case 'ServiceQuotaExceededException':
    case 'TooManyRequestsException':
      return new ModelCallError({ ...base, kind: 'rate-limit', message: described });
    case 'ServiceUnavailableException':
    case 'ModelNotReadyException':
      return new ModelCallError({ ...base, kind: 'overloaded', message: described });
    case 'ModelTimeoutException':
    case 'RequestTimeout':
    case 'RequestTimeoutException':
      return new ModelCallError({ ...base, kind: 'timeout', message: described });
    case 'InternalServerException':
    case 'ModelErrorException':
    case 'InternalFailure':
      return new ModelCallError({ ...base, kind: 'server', message: described });
    case 'AccessDeniedException':
    case 'UnrecognizedClientException':
    case 'ExpiredTokenException':
    case 'InvalidSignatureException':
    case 'CredentialsProviderError':
    case 'IncompleteSignatureException':
      return new ModelCallError({ ...base, kind: 'auth', setting, message: `${described} (check ${setting})` });
    case 'ValidationException':
      return mentionsContextOverflow(message) || /too long|context/i.test(message)
        ? new ModelCallError({ ...base, kind: 'context-overflow', message: `${described} (the conversation does not fit the model's context window)` })
        : new ModelCallError({ ...base, kind: 'invalid-request', message: described });
    case 'ResourceNotFoundException':
      return new ModelCallError({ ...base, kind: 'invalid-request', message: `${described} (is the model id in SRE_AGENT_MODEL enabled in this region?)` });
    default:
      break;
  }
  const classified = classifyTransport(provider, error);
  if (classified) return classified;
  if (typeof status === 'number') {
    if (status === 429) return new ModelCallError({ ...base, kind: 'rate-limit', message: described });
    if (status === 401 || status === 403) return new ModelCallError({ ...base, kind: 'auth', setting, message: `${described} (check ${setting})` });
    if (status >= 500) return new ModelCallError({ ...base, kind: 'server', message: described });
    if (status >= 400) return new ModelCallError({ ...base, kind: 'invalid-request', message: described });
  }
  const fault = (error as { $fault?: unknown } | undefined)?.$fault;
  return new ModelCallError({ ...base, kind: fault === 'server' ? 'server' : 'unknown', message: described });
};
