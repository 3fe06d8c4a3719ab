import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import { EventBridgeLifecyclePublisher } from '../lib/notify/eventbridge-lifecycle-publisher.ts';
import { DynamoDbApprovalStore } from '../lib/store/dynamodb-approval-store.ts';
import { requestApproval } from '../lib/workflow/request-approval.ts';
import { reportingNotifier } from './notifier.ts';
import { coreFrom, toolSourceFrom } from './ports.ts';
import { stepHandler } from './runtime.ts';

export const handler = stepHandler(
  'request-approval',
  async (environment) => {
    const core = coreFrom(environment);
    const approvals = new DynamoDbApprovalStore({ client: new DynamoDBClient({}), ...environment.table() });
    return {
      ...core,
      approvals,
      tools: toolSourceFrom(environment, core.store),
      // The approvers hear of the decision waiting where findings are announced, and on the lifecycle bus.
      notifier: reportingNotifier(environment, core.store),
      lifecycle: new EventBridgeLifecyclePublisher(new EventBridgeClient({}), environment.lifecycleBusName()),
    };
  },
  requestApproval,
);
