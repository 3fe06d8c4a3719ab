import { randomBytes } from 'node:crypto';
import { TaskClosedError, type TaskCallbacks } from '../lib/approval/task-callbacks.ts';

interface Wait {
  resolve: (output: Record<string, unknown>) => void;
  reject: (error: Error) => void;
}

/**
 * The local stand-in for Step Functions' task tokens (aws-local-stepfunctions has none): the
 * approval state's handler waits here, and SendTaskSuccess/SendTaskFailure become `succeed`/`fail`.
 */
export class LocalTaskTokenWaits implements TaskCallbacks {
  private readonly waits = new Map<string, Wait>();

  /** A fresh token and the wait it opens; the wait closes after `seconds`, as the state's timeout closes the task. */
  open(seconds: number): { taskToken: string; decision: Promise<Record<string, unknown>> } {
    const taskToken = randomBytes(32).toString('base64url');
    const decision = new Promise<Record<string, unknown>>((resolve, reject) => this.waits.set(taskToken, { resolve, reject }));
    setTimeout(() => this.waits.delete(taskToken), seconds * 1000).unref();
    return { taskToken, decision };
  }

  async succeed(taskToken: string, output: Record<string, unknown>): Promise<void> {
    this.take(taskToken).resolve(output);
  }

  async fail(taskToken: string, error: string, cause: string): Promise<void> {
    this.take(taskToken).reject(Object.assign(new Error(cause), { name: error }));
  }

  private take(taskToken: string): Wait {
    const wait = this.waits.get(taskToken);
    if (!wait) throw new TaskClosedError('the task is no longer waiting (it timed out or its execution ended)');
    this.waits.delete(taskToken);
    return wait;
  }
}
