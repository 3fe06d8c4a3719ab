import { Logger } from '@aws-lambda-powertools/logger';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SFNClient } from '@aws-sdk/client-sfn';
import { redeliverDecisions } from '../lib/approval/decide.ts';
import { SfnTaskCallbacks } from '../lib/approval/sfn-task-callbacks.ts';
import { DynamoDbApprovalStore } from '../lib/store/dynamodb-approval-store.ts';
import { stackEnvironment } from './environment.ts';

const logger = new Logger({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'sre-agent' });
const ports = {
  approvals: new DynamoDbApprovalStore({ client: new DynamoDBClient({}), ...stackEnvironment(process.env).table() }),
  callbacks: new SfnTaskCallbacks(new SFNClient({})),
  log: (line: string) => logger.info(line),
};

/** Every minute: decisions recorded whose callback failed are sent to Step Functions again, until it answers. */
export const handler = async (): Promise<{ answered: number }> => ({ answered: await redeliverDecisions(ports) });
