/** Step Functions closed the task already (it timed out or the execution ended): the answer can never land. */
export class TaskClosedError extends Error {
  override readonly name = 'TaskClosedError';
}

/** The error a rejection sends: the approval state's Catch routes it to ResolveApproval. */
export const APPROVAL_REJECTED_ERROR = 'ApprovalRejected';

/** Answers a waiting `.waitForTaskToken` state: SendTaskSuccess/SendTaskFailure on AWS, an in-process wait locally. */
export interface TaskCallbacks {
  /** Throws TaskClosedError when the task is closed; any other error means "try again". */
  succeed(taskToken: string, output: Record<string, unknown>): Promise<void>;
  fail(taskToken: string, error: string, cause: string): Promise<void>;
}
