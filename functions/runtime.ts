import { Logger } from '@aws-lambda-powertools/logger';
import type { Context } from 'aws-lambda';
import type { StepName } from '../lib/workflow/control.ts';
import { stackEnvironment, type StackEnvironment } from './environment.ts';

export const logger = new Logger({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'sre-agent' });

/**
 * Built on first use and reused by every invocation of the container; a build that fails is
 * forgotten, so the next invocation tries again (a secret that was missing may be there now).
 */
const reusedOnSuccess = <T>(build: () => Promise<T>): (() => Promise<T>) => {
  let pending: Promise<T> | undefined;
  return () =>
    (pending ??= build().catch((error: unknown) => {
      pending = undefined;
      throw error;
    }));
};

const investigationIdOf = (event: unknown): string | undefined => {
  if (typeof event !== 'object' || event === null) return undefined;
  const record = event as { investigationId?: unknown; input?: { investigationId?: unknown } };
  const id = record.investigationId ?? record.input?.investigationId;
  return typeof id === 'string' ? id : undefined;
};

/**
 * A Lambda handler for one workflow step: it builds only that step's dependencies from the
 * environment, and its structured logs carry the investigation id on every line.
 */
export const stepHandler = <Dependencies>(
  step: StepName,
  build: (environment: StackEnvironment) => Promise<Dependencies>,
  run: (dependencies: Dependencies, input: unknown) => Promise<unknown>,
  env: Record<string, string | undefined> = process.env,
) => {
  const dependencies = reusedOnSuccess(() => build(stackEnvironment(env)));
  return async (event: unknown, context: Context): Promise<unknown> => {
    logger.addContext(context);
    const investigationId = investigationIdOf(event);
    if (investigationId) logger.appendKeys({ investigationId });
    try {
      logger.info('step started', { step });
      const outcome = await run(await dependencies(), event);
      const finalId = investigationIdOf(outcome);
      if (finalId && !investigationId) logger.appendKeys({ investigationId: finalId });
      logger.info('step finished', { step });
      return outcome;
    } catch (error) {
      logger.error('step failed', { step, error: error instanceof Error ? error : String(error) });
      throw error;
    } finally {
      logger.resetKeys();
    }
  };
};
