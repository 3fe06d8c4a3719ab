import type { TokenUsage } from '../../domain/usage.ts';
import type { ModelRequest, ModelResponse } from '../port.ts';
import type { AbortableModelPort, CallOptions } from '../providers/conversation.ts';
import { isModelCallError, isTransient, ModelCallError, type ModelErrorKind } from '../providers/errors.ts';
import { defaultShrink, type ShrinkRequest } from './shrink.ts';

/** What the resilience layer does after an attempt. */
export type AttemptNext = 'done' | 'retry' | 'shrink' | 'fallback' | 'fail';

/** One attempt's outcome, for logging. */
export interface AttemptEvent {
  /** The provider's port name, e.g. `openai:gpt-4o`. */
  provider: string;
  /** 0 for the primary, 1.. for the fallbacks. */
  providerIndex: number;
  /** 1-based attempt number on this provider. */
  attempt: number;
  ok: boolean;
  durationMs: number;
  kind?: ModelErrorKind;
  error?: ModelCallError;
  next: AttemptNext;
  /** The wait before the next attempt, when `next` is `retry`. */
  delayMs?: number;
  usage?: TokenUsage;
}

export interface ResilienceOptions {
  /** Attempts per provider on transient errors (rate-limit, server, overloaded, timeout). Default 4. */
  maxAttempts?: number;
  /** Backoff base; the n-th retry waits a random time in [0, min(maxDelayMs, baseDelayMs * 2^(n-1))). Default 500 ms. */
  baseDelayMs?: number;
  /** Backoff cap. Default 20 s. */
  maxDelayMs?: number;
  /** A provider-requested wait (`retry-after`) longer than this moves on to the next provider instead. Default 60 s. */
  maxRetryAfterMs?: number;
  /** Per-attempt timeout; the attempt is aborted and counts as a `timeout` error. Default 60 s; 0 turns it off. */
  timeoutMs?: number;
  /** Called once per model call on a context-overflow error; the call is then retried with its result. */
  shrink?: ShrinkRequest;
  /** Injectable for tests: waits `ms`, rejecting early if `signal` aborts. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Injectable for tests: uniform in [0, 1). */
  random?: () => number;
  /** Injectable clock for durations. */
  now?: () => number;
  onAttempt?: (event: AttemptEvent) => void;
  /** The name this port reports; default the chain's names joined with `>`. */
  name?: string;
}

/** Thrown when every provider in the chain failed; `failures` holds each provider's last error. */
export class ModelChainError extends ModelCallError {
  override readonly name = 'ModelChainError';
  constructor(
    provider: string,
    readonly failures: readonly ModelCallError[],
  ) {
    const last = failures.at(-1)!;
    super({
      kind: last.kind,
      provider,
      status: last.status,
      code: last.code,
      setting: last.setting,
      cause: last,
      message: `every model provider failed: ${failures.map((failure) => failure.message).join('; ')}`,
    });
  }
}

export const realSleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/** Full-jitter exponential backoff for the n-th retry (1-based). */
export const backoffDelay = (retry: number, options: { baseDelayMs: number; maxDelayMs: number; random: () => number }): number =>
  Math.floor(options.random() * Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** Math.max(0, retry - 1)));

/**
 * A model port over a chain `[primary, ...fallbacks]`: per-attempt timeouts, retries with exponential
 * backoff and full jitter on transient errors (honouring `retry-after`), the next provider once retries
 * run out, one shrink-and-retry on context overflow, and fail-fast on auth and invalid-request errors.
 */
export class ResilientModel implements AbortableModelPort {
  readonly name: string;
  private readonly chain: readonly AbortableModelPort[];
  private readonly maxAttempts: number;
  private readonly baseDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly maxRetryAfterMs: number;
  private readonly timeoutMs: number;
  private readonly shrink: ShrinkRequest;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private readonly random: () => number;
  private readonly now: () => number;
  private readonly onAttempt: ((event: AttemptEvent) => void) | undefined;

  constructor(chain: readonly AbortableModelPort[], options: ResilienceOptions = {}) {
    if (chain.length === 0) throw new Error('ResilientModel needs at least one model');
    this.chain = chain;
    this.name = options.name ?? chain.map((model) => model.name).join('>');
    this.maxAttempts = Math.max(1, Math.floor(options.maxAttempts ?? 4));
    this.baseDelayMs = options.baseDelayMs ?? 500;
    this.maxDelayMs = options.maxDelayMs ?? 20_000;
    this.maxRetryAfterMs = options.maxRetryAfterMs ?? 60_000;
    this.timeoutMs = options.timeoutMs ?? 60_000;
    this.shrink = options.shrink ?? defaultShrink;
    this.sleep = options.sleep ?? realSleep;
    this.random = options.random ?? Math.random;
    this.now = options.now ?? Date.now;
    this.onAttempt = options.onAttempt;
  }

  /** The models in order, primary first. */
  get models(): readonly AbortableModelPort[] {
    return this.chain;
  }

  async complete(request: ModelRequest, options: CallOptions = {}): Promise<ModelResponse> {
    const outer = options.signal;
    const failures: ModelCallError[] = [];
    let current = request;
    let shrunk = false;
    for (const [providerIndex, model] of this.chain.entries()) {
      let attempt = 0;
      let transientFailures = 0;
      const isLast = providerIndex === this.chain.length - 1;
      for (;;) {
        attempt += 1;
        const started = this.now();
        let error: ModelCallError;
        try {
          const response = await this.attempt(model, current, outer);
          this.report({ provider: model.name, providerIndex, attempt, ok: true, durationMs: this.now() - started, next: 'done', usage: response.usage });
          return response;
        } catch (raw) {
          error = this.asModelCallError(raw, model.name);
        }
        const base = { provider: model.name, providerIndex, attempt, ok: false, durationMs: this.now() - started, kind: error.kind, error };
        if (outer?.aborted || error.kind === 'auth' || error.kind === 'invalid-request') {
          this.report({ ...base, next: 'fail' });
          throw error;
        }
        if (error.kind === 'context-overflow' && !shrunk) {
          shrunk = true;
          current = this.shrink(current);
          this.report({ ...base, next: 'shrink' });
          continue;
        }
        // Our retry, not the SDKs' (theirs are off): only here can a long retry-after or exhausted retries hand over to the next provider.
        if (isTransient(error.kind)) {
          transientFailures += 1;
          const delayMs = transientFailures < this.maxAttempts ? this.delayFor(transientFailures, error) : undefined;
          if (delayMs !== undefined) {
            this.report({ ...base, next: 'retry', delayMs });
            try {
              await this.sleep(delayMs, outer);
            } catch (reason) {
              throw this.aborted(model.name, reason);
            }
            continue;
          }
        }
        failures.push(error);
        this.report({ ...base, next: isLast ? 'fail' : 'fallback' });
        if (isLast) throw failures.length === 1 ? error : new ModelChainError(this.name, failures);
        break;
      }
    }
    throw new Error('unreachable: the chain is never empty');
  }

  /** The wait before the n-th retry; undefined when the provider asks for longer than we are willing to wait. */
  private delayFor(retry: number, error: ModelCallError): number | undefined {
    if (error.retryAfterMs !== undefined) return error.retryAfterMs > this.maxRetryAfterMs ? undefined : error.retryAfterMs;
    return backoffDelay(retry, { baseDelayMs: this.baseDelayMs, maxDelayMs: this.maxDelayMs, random: this.random });
  }

  /** One call with its own timeout; the caller's signal aborts it too. Adapters that ignore the signal are raced. */
  private async attempt(model: AbortableModelPort, request: ModelRequest, outer: AbortSignal | undefined): Promise<ModelResponse> {
    if (outer?.aborted) throw this.aborted(model.name, outer.reason);
    const controller = new AbortController();
    let timedOut = false;
    const timer =
      this.timeoutMs > 0
        ? setTimeout(() => {
            timedOut = true;
            controller.abort(new ModelCallError({ kind: 'timeout', provider: model.name, message: `${model.name}: no response within ${this.timeoutMs} ms` }));
          }, this.timeoutMs)
        : undefined;
    const onOuterAbort = (): void => controller.abort(outer?.reason);
    outer?.addEventListener('abort', onOuterAbort, { once: true });
    const stopped = new Promise<never>((_, reject) => {
      controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true });
    });
    stopped.catch(() => undefined);
    const call = Promise.resolve().then(() => model.complete(request, { signal: controller.signal }));
    call.catch(() => undefined);
    try {
      return await Promise.race([call, stopped]);
    } catch (error) {
      if (timedOut) {
        throw new ModelCallError({ kind: 'timeout', provider: model.name, code: 'timeout', message: `${model.name}: no response within ${this.timeoutMs} ms`, cause: error });
      }
      if (outer?.aborted) throw this.aborted(model.name, outer.reason);
      throw error;
    } finally {
      if (timer !== undefined) clearTimeout(timer);
      outer?.removeEventListener('abort', onOuterAbort);
    }
  }

  private aborted(provider: string, reason: unknown): ModelCallError {
    return new ModelCallError({ kind: 'timeout', provider, code: 'aborted', message: `${provider}: the model call was cancelled`, cause: reason });
  }

  private asModelCallError(error: unknown, provider: string): ModelCallError {
    if (isModelCallError(error)) return error;
    const message = error instanceof Error ? error.message : String(error);
    return new ModelCallError({ kind: 'unknown', provider, message: `${provider}: ${message}`, cause: error });
  }

  private report(event: AttemptEvent): void {
    try {
      this.onAttempt?.(event);
    } catch {
      // A logging callback must never break a model call.
    }
  }
}
