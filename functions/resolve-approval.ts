import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDbApprovalStore } from '../lib/store/dynamodb-approval-store.ts';
import { resolveApproval } from '../lib/workflow/resolve-approval.ts';
import { coreFrom, toolSourceFrom } from './ports.ts';
import { stepHandler } from './runtime.ts';

export const handler = stepHandler(
  'resolve-approval',
  async (environment) => {
    const core = coreFrom(environment);
    const approvals = new DynamoDbApprovalStore({ client: new DynamoDBClient({}), ...environment.table() });
    return { ...core, approvals, tools: toolSourceFrom(environment, core.store) };
  },
  resolveApproval,
);
