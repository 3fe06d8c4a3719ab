import { Logger } from '@aws-lambda-powertools/logger';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SFNClient } from '@aws-sdk/client-sfn';
import type { ApiPorts } from '../lib/api/ports.ts';
import { secretsManagerSecrets } from '../lib/api/secrets.ts';
import { admissionSettingsFromEnv } from '../lib/api/settings.ts';
import { DynamoDbStore } from '../lib/store/dynamodb-store.ts';
import { DynamoDbApprovalStore } from '../lib/store/dynamodb-approval-store.ts';
import { SfnTaskCallbacks } from '../lib/approval/sfn-task-callbacks.ts';
import { getSecret } from '@aws-lambda-powertools/parameters/secrets';
import { approversFromEnv, iamCallerIdentity, slackApproversFromEnv } from '../lib/api/approval-settings.ts';
import { DynamoDbTriggerLedger } from '../lib/store/dynamodb-trigger-ledger.ts';
import { stackEnvironment } from './environment.ts';
import { StepFunctionsStarter } from '../lib/triggers/step-functions-starter.ts';

export const logger = new Logger({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'sre-agent' });

const requiredEnv = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`environment variable ${name} is not set; the stack sets it on the trigger functions`);
  return value;
};

let ports: ApiPorts | undefined;

/** The doors' ports on AWS, built once per container: the table, Step Functions, Secrets Manager. */
export const apiPortsFromEnvironment = (): ApiPorts => {
  if (ports) return ports;
  const client = new DynamoDBClient({});
  const { tableName, retentionDays } = stackEnvironment(process.env).table();
  const deciding = {
    approvals: new DynamoDbApprovalStore({ client, tableName, retentionDays }),
    callbacks: new SfnTaskCallbacks(new SFNClient({})),
    ...approversFromEnv(process.env),
    log: (line: string) => logger.info(line),
  };
  const slackSecretArn = process.env.SLACK_SIGNING_SECRET_ARN;
  ports = {
    store: new DynamoDbStore({ client, tableName, retentionDays }),
    ledger: new DynamoDbTriggerLedger({ client, tableName, retentionDays }),
    starter: new StepFunctionsStarter(new SFNClient({}), requiredEnv('STATE_MACHINE_ARN')),
    secrets: secretsManagerSecrets(process.env.PAGERDUTY_WEBHOOK_SECRET_ARN),
    settings: admissionSettingsFromEnv(process.env),
    log: (line) => logger.info(line),
    approvalRoutes: { ...deciding, callerIdentity: iamCallerIdentity },
    // The approval notice's Slack buttons, when the stack has the Slack app's signing secret.
    ...(slackSecretArn
      ? {
          slackInteractions: {
            ...deciding,
            slackSigningSecret: async () => {
              const value = await getSecret<string>(slackSecretArn, { maxAge: 300 });
              return typeof value === 'string' && value !== '' ? value : undefined;
            },
            slackApprovers: slackApproversFromEnv(process.env),
          },
        }
      : {}),
  };
  return ports;
};
