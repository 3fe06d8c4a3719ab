import { ExecutionAlreadyExists, SFNClient, StartExecutionCommand, StopExecutionCommand } from '@aws-sdk/client-sfn';
import type { ExecutionInput } from '../workflow/control.ts';
import type { InvestigationStarter } from './starter.ts';

/**
 * Starts investigations as Step Functions executions named by the investigation id, so a second
 * start of the same investigation is refused by Step Functions itself.
 */
export class StepFunctionsStarter implements InvestigationStarter {
  constructor(
    private readonly client: SFNClient,
    private readonly stateMachineArn: string,
  ) {}

  async start(investigationId: string, input: ExecutionInput): Promise<void> {
    try {
      await this.client.send(new StartExecutionCommand({ stateMachineArn: this.stateMachineArn, name: investigationId, input: JSON.stringify(input) }));
    } catch (error) {
      if (!(error instanceof ExecutionAlreadyExists)) throw error;
    }
  }

  async stop(investigationId: string): Promise<void> {
    await this.client.send(
      new StopExecutionCommand({
        executionArn: `${this.stateMachineArn.replace(':stateMachine:', ':execution:')}:${investigationId}`,
        error: 'Cancelled',
        cause: 'cancelled through the sre-agent API',
      }),
    );
  }
}
