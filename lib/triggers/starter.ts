import type { ExecutionInput } from '../workflow/control.ts';

/** The port that runs an investigation's workflow: Step Functions on AWS, the in-process workflow locally. */
export interface InvestigationStarter {
  /** Starts the execution named by the investigation id; starting one that already exists is not an error. */
  start(investigationId: string, input: ExecutionInput): Promise<void>;
  /** Stops the execution; stopping one that already ended is not an error. */
  stop(investigationId: string): Promise<void>;
}
