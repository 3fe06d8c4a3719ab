import { createHash } from 'node:crypto';
import { modelResponse, type ModelPort } from '../model/port.ts';
import type { InvestigationStore } from '../store/port.ts';

export interface OnceTiming {
  /** How long a caller may hold the record before another may take over: longer than the work can take. */
  leaseMs: number;
  /** How often a waiting caller looks at the record again. */
  pollMs: number;
}

/** A model call may take as long as the CallModel task's timeout (10 minutes). */
export const MODEL_CALL_TIMING: OnceTiming = { leaseMs: 10 * 60_000, pollMs: 1_000 };
export const NOTIFICATION_TIMING: OnceTiming = { leaseMs: 60_000, pollMs: 1_000 };

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `work` at most once per investigation and key, as Powertools Idempotency does: a record
 * marked in progress, with a lease, is written (conditionally) before the work; a concurrent or
 * replayed caller waits until the first one completes and returns its result, or until the lease
 * runs out and takes over. A failed attempt releases the record so that a retry need not wait.
 */
export const once = async <Result>(
  store: Pick<InvestigationStore, 'claimOnce' | 'completeOnce' | 'releaseOnce'>,
  investigationId: string,
  key: string,
  work: () => Promise<Result>,
  timing: OnceTiming,
): Promise<Result> => {
  for (;;) {
    const claim = await store.claimOnce(investigationId, key, timing.leaseMs);
    if (claim.state === 'done') return claim.result as Result;
    if (claim.state === 'in-progress') {
      await pause(timing.pollMs);
      continue;
    }
    let result: Result;
    try {
      result = await work();
    } catch (error) {
      await store.releaseOnce(investigationId, key);
      throw error;
    }
    await store.completeOnce(investigationId, key, result);
    return result;
  }
};

/**
 * The model as one step sees it: each request, by its position in the step, is paid for once. A
 * replay of the step (its commit failed, or it runs twice at once) builds the same masked request
 * and gets the recorded answer back.
 */
export const modelCalledOnce = (
  model: ModelPort,
  store: Pick<InvestigationStore, 'claimOnce' | 'completeOnce' | 'releaseOnce'>,
  investigationId: string,
  step: string,
  timing: OnceTiming = MODEL_CALL_TIMING,
): ModelPort => {
  let calls = 0;
  return {
    name: model.name,
    ...(model.contextWindowTokens === undefined ? {} : { contextWindowTokens: model.contextWindowTokens }),
    complete: async (request) => {
      calls += 1;
      const requestHash = createHash('sha256').update(JSON.stringify(request)).digest('hex').slice(0, 16);
      const answer = await once(store, investigationId, `${step}/model#${calls}/${requestHash}`, () => model.complete(request), timing);
      return modelResponse.parse(answer);
    },
  };
};
