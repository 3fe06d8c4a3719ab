import { RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as kms from 'aws-cdk-lib/aws-kms';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { taskCallbackStatement } from './approval-redelivery.ts';
import { TriggerFunction } from './trigger-function.ts';

export interface InvestigationApiProps {
  readonly table: dynamodb.ITable;
  readonly key: kms.IKey;
  readonly stateMachine: sfn.StateMachine;
  readonly retention: logs.RetentionDays;
  /** The PagerDuty V3 webhook signing secret (a plain string); only the API function may read it. */
  readonly webhookSecret?: secretsmanager.ISecret;
  /** Investigations running at once (SRE_AGENT_MAX_RUNNING); the rest are queued. */
  readonly maxRunning?: number;
  /** The Slack app's signing secret (a plain string): the approval buttons' route exists only with it, and only the API function may read it. */
  readonly slackSigningSecret?: secretsmanager.ISecret;
  /** `<Slack user id>=<principal ARN>` pairs (SRE_AGENT_SLACK_APPROVERS): who a button click decides as. */
  readonly slackApprovers?: string;
  /** Minutes a group stays open after its last trigger (SRE_AGENT_GROUP_WINDOW_MINUTES). */
  readonly groupWindowMinutes?: number;
}

/** [path, method] of every route; all but the webhook require SigV4 (IAM) authorization. */
export const API_ROUTES = [
  ['/investigations', 'GET'],
  ['/investigations', 'POST'],
  ['/investigations/{id}', 'GET'],
  ['/investigations/{id}/transcript', 'GET'],
  ['/investigations/{id}/transcript/unmasked', 'GET'],
  ['/investigations/{id}/alarm', 'GET'],
  ['/investigations/{id}/cancel', 'POST'],
  ['/events', 'POST'],
  ['/approvals', 'GET'],
  ['/approvals/{id}', 'POST'],
  ['/webhooks/pagerduty', 'POST'],
] as const;
export const WEBHOOK_ROUTE = '/webhooks/pagerduty';
/** The approval notice's Slack buttons: Slack signs with its own HMAC, not SigV4. Present only with a signing secret. */
export const SLACK_INTERACTIONS_ROUTE = '/webhooks/slack';

/**
 * The investigations API for internal tools: an API Gateway REST API with IAM auth on every route
 * but the PagerDuty webhook (which PagerDuty cannot sign with SigV4; the app verifies its HMAC
 * signature instead), in front of one Lambda function running the HTTP app.
 */
export class InvestigationApi extends Construct {
  readonly api: apigateway.RestApi;
  readonly handler: TriggerFunction;

  constructor(scope: Construct, id: string, props: InvestigationApiProps) {
    super(scope, id);
    this.handler = new TriggerFunction(this, 'Handler', {
      handler: 'api',
      description: 'sre-agent HTTP API: investigations, EventBridge events, PagerDuty webhooks, approval decisions',
      table: props.table,
      key: props.key,
      stateMachine: props.stateMachine,
      retention: props.retention,
      environment: {
        ...(props.webhookSecret ? { PAGERDUTY_WEBHOOK_SECRET_ARN: props.webhookSecret.secretArn } : {}),
        ...(props.maxRunning === undefined ? {} : { SRE_AGENT_MAX_RUNNING: String(props.maxRunning) }),
        ...(props.groupWindowMinutes === undefined ? {} : { SRE_AGENT_GROUP_WINDOW_MINUTES: String(props.groupWindowMinutes) }),
        ...(props.slackSigningSecret ? { SLACK_SIGNING_SECRET_ARN: props.slackSigningSecret.secretArn } : {}),
        ...(props.slackApprovers ? { SRE_AGENT_SLACK_APPROVERS: props.slackApprovers } : {}),
      },
    });
    // Powertools reads it with GetSecretValue alone: no DescribeSecret, nothing else.
    if (props.webhookSecret) {
      this.handler.role.addToPrincipalPolicy(
        new iam.PolicyStatement({ sid: 'ReadWebhookSecret', actions: ['secretsmanager:GetSecretValue'], resources: [props.webhookSecret.secretArn] }),
      );
    }
    if (props.slackSigningSecret) {
      this.handler.role.addToPrincipalPolicy(
        new iam.PolicyStatement({ sid: 'ReadSlackSigningSecret', actions: ['secretsmanager:GetSecretValue'], resources: [props.slackSigningSecret.secretArn] }),
      );
    }
    // The API decides approvals (POST /approvals/{id}) and answers the waiting approval state.
    this.handler.role.addToPrincipalPolicy(taskCallbackStatement(props.stateMachine));

    const accessLogs = new logs.LogGroup(this, 'AccessLogs', { retention: props.retention, encryptionKey: props.key, removalPolicy: RemovalPolicy.DESTROY });
    this.api = new apigateway.RestApi(this, 'Api', {
      description: 'sre-agent investigations API',
      cloudWatchRole: false,
      deployOptions: {
        accessLogDestination: new apigateway.LogGroupLogDestination(accessLogs),
        accessLogFormat: apigateway.AccessLogFormat.jsonWithStandardFields(),
        tracingEnabled: true,
      },
      defaultMethodOptions: { authorizationType: apigateway.AuthorizationType.IAM },
    });
    const integration = new apigateway.LambdaIntegration(this.handler.function, { proxy: true });
    const routes: readonly (readonly [string, string])[] = [...API_ROUTES, ...(props.slackSigningSecret ? [[SLACK_INTERACTIONS_ROUTE, 'POST'] as const] : [])];
    for (const [path, method] of routes) {
      const resource = this.api.root.resourceForPath(path);
      const open = path === WEBHOOK_ROUTE || path === SLACK_INTERACTIONS_ROUTE;
      const created = resource.addMethod(method, integration, open ? { authorizationType: apigateway.AuthorizationType.NONE } : {});
      if (open) {
        Validations.of(created).acknowledge(
          path === WEBHOOK_ROUTE
            ? { id: 'AwsSolutions-APIG4', reason: 'PagerDuty cannot sign with SigV4; the app verifies the X-PagerDuty-Signature HMAC of the raw body and answers 401 before anything else.' }
            : { id: 'AwsSolutions-APIG4', reason: 'Slack cannot sign with SigV4; the app verifies the X-Slack-Signature v0 HMAC of the timestamp and raw body, refuses requests over five minutes old, and answers 401 before anything else.' },
          { id: 'AwsSolutions-COG4', reason: 'PagerDuty and Slack cannot present a Cognito token; these webhooks are authenticated by their HMAC signatures.' },
        );
      }
    }
    Validations.of(this.api).acknowledge(
      { id: 'AwsSolutions-APIG2', reason: 'Every body and query is validated with zod in the app, which answers 400 naming each invalid field; a second, weaker validator here would only disagree with it.' },
      { id: 'AwsSolutions-APIG3', reason: 'Internal API with IAM auth; the only open route verifies an HMAC signature. A WAF web ACL is an account-level choice left to the deployer.' },
      { id: 'AwsSolutions-APIG6', reason: 'Execution logging needs the account-wide API Gateway CloudWatch role, which this stack does not own (@aws-cdk/aws-apigateway:disableCloudWatchRole); access logs are on, and the function logs every request.' },
      { id: 'AwsSolutions-COG4', reason: 'Internal tools authenticate with IAM (SigV4) on every route; there is no Cognito user pool, and the webhook is HMAC-signed.' },
    );
  }
}
