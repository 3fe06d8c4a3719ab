import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDbApprovalStore } from '../lib/store/dynamodb-approval-store.ts';
import { requestApproval } from '../lib/workflow/request-approval.ts';
import { coreFrom, toolSourceFrom } from './ports.ts';
import { stepHandler } from './runtime.ts';

export const handler = stepHandler(
  'request-approval',
  async (environment) => {
    const core = coreFrom(environment);
    const approvals = new DynamoDbApprovalStore({ client: new DynamoDBClient({}), ...environment.table() });
    return { ...core, approvals, tools: toolSourceFrom(environment, core.store) };
  },
  requestApproval,
);
