import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { SreAgentStack, type SreAgentStackProps } from './sre-agent-stack.ts';

/** Context values arrive as JSON from cdk.json or as strings from `-c key=value`. */
function stringContext(app: App, key: string): string | undefined {
  const value: unknown = app.node.tryGetContext(key);
  if (value === undefined || value === null || value === '') return undefined;
  return String(value);
}

function numberContext(app: App, key: string): number | undefined {
  const raw = stringContext(app, key);
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value)) throw new Error(`context ${key} must be an integer; got ${raw}`);
  return value;
}

const app = new App();

const props: SreAgentStackProps = {
  env: { account: process.env['CDK_DEFAULT_ACCOUNT'], region: process.env['CDK_DEFAULT_REGION'] },
  description: 'sre-agent: AI site-reliability agent (investigation workflow, table, notifications)',
};
const maxIterations = numberContext(app, 'maxIterations');
const retentionDays = numberContext(app, 'retentionDays');
const modelProvider = stringContext(app, 'modelProvider');
const modelName = stringContext(app, 'modelName');
const modelSecretArn = stringContext(app, 'modelSecretArn');
const sweepRateMinutes = numberContext(app, 'sweepRateMinutes');
const webhookSecretArn = stringContext(app, 'webhookSecretArn');
const slackSigningSecretArn = stringContext(app, 'slackSigningSecretArn');
const slackApprovers = stringContext(app, 'slackApprovers');
const reportSecretArn = stringContext(app, 'reportSecretArn');
const reportChannels = Object.fromEntries(
  (['pagerDutyFrom', 'slackChannel', 'publicUrl'] as const).flatMap((key) => (stringContext(app, key) === undefined ? [] : [[key, stringContext(app, key)!]])),
) as NonNullable<SreAgentStackProps['reportChannels']>;
const maxRunning = numberContext(app, 'maxRunning');
const groupWindowMinutes = numberContext(app, 'groupWindowMinutes');
/** `awsTools` is an object in cdk.json, or JSON text from `-c awsTools='{...}'`. */
const awsToolsContext: unknown = app.node.tryGetContext('awsTools');
const awsTools = typeof awsToolsContext === 'string' ? (JSON.parse(awsToolsContext) as SreAgentStackProps['awsTools']) : (awsToolsContext as SreAgentStackProps['awsTools']);

new SreAgentStack(app, 'SreAgent', {
  ...props,
  ...(maxIterations !== undefined ? { maxIterations } : {}),
  ...(retentionDays !== undefined ? { retentionDays } : {}),
  ...(modelProvider !== undefined ? { modelProvider } : {}),
  ...(modelName !== undefined ? { modelName } : {}),
  ...(modelSecretArn !== undefined ? { modelSecretArn } : {}),
  ...(sweepRateMinutes !== undefined ? { sweepRateMinutes } : {}),
  ...(webhookSecretArn !== undefined ? { webhookSecretArn } : {}),
  ...(slackSigningSecretArn !== undefined ? { slackSigningSecretArn } : {}),
  ...(slackApprovers !== undefined ? { slackApprovers } : {}),
  ...(reportSecretArn !== undefined ? { reportSecretArn } : {}),
  ...(Object.keys(reportChannels).length > 0 ? { reportChannels } : {}),
  ...(maxRunning !== undefined ? { maxRunning } : {}),
  ...(groupWindowMinutes !== undefined ? { groupWindowMinutes } : {}),
  ...(awsTools !== undefined && awsTools !== null ? { awsTools } : {}),
});

// cdk-nag 3 is a CDK validation plugin (v2's Aspects.of(app).add(...) no longer applies): an
// unacknowledged error-level finding fails synthesis; acknowledgements live in the stack code.
if (stringContext(app, 'nag') !== 'false') {
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
}
