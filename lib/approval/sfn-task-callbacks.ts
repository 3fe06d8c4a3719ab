import { SendTaskFailureCommand, SendTaskSuccessCommand, SFNClient, TaskTimedOut, InvalidToken } from '@aws-sdk/client-sfn';
import { TaskClosedError, type TaskCallbacks } from './task-callbacks.ts';

/** The Step Functions adapter: a timed-out or unknown token is a closed task, never retried. */
export class SfnTaskCallbacks implements TaskCallbacks {
  constructor(private readonly client: SFNClient) {}

  async succeed(taskToken: string, output: Record<string, unknown>): Promise<void> {
    await this.send(() => this.client.send(new SendTaskSuccessCommand({ taskToken, output: JSON.stringify(output) })));
  }

  async fail(taskToken: string, error: string, cause: string): Promise<void> {
    await this.send(() => this.client.send(new SendTaskFailureCommand({ taskToken, error, cause })));
  }

  private async send(call: () => Promise<unknown>): Promise<void> {
    try {
      await call();
    } catch (error) {
      // The token itself is never part of the message: SDK errors do not echo it, and this one names only the kind.
      if (error instanceof TaskTimedOut || error instanceof InvalidToken) throw new TaskClosedError(`Step Functions closed the task (${error.name})`);
      throw error;
    }
  }
}
