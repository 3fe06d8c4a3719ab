import { z } from 'zod';
import { awsToolSettings, type AwsToolSettings } from '../integrations/aws/settings.ts';
import { modelConfigFromEnv, type ModelConfig } from '../lib/model/config/index.ts';
import { investigationSettingsFromEnv, SettingsError, type InvestigationSettings } from '../lib/workflow/settings.ts';

type Env = Record<string, string | undefined>;

const required = (env: Env, name: string): string => {
  const value = env[name]?.trim();
  if (!value) throw new SettingsError(`environment variable ${name} is not set; the stack sets it on every function that needs it`);
  return value;
};

const jsonSetting = <T extends z.ZodType>(env: Env, name: string, schema: T): z.infer<T> => {
  const text = env[name]?.trim();
  let value: unknown = {};
  if (text) {
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new SettingsError(`${name} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new SettingsError(`${name} is not valid: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
};

/**
 * The one reader of the functions' environment. Each part is read when a step asks for it, so a
 * step is never stopped by a setting it does not use (the model's, say, in a step that never calls it).
 */
export const stackEnvironment = (env: Env = process.env) => ({
  table: (): { tableName: string; retentionDays: number } => {
    const days = Number(required(env, 'RETENTION_DAYS'));
    if (!Number.isInteger(days) || days <= 0) throw new SettingsError(`RETENTION_DAYS must be a positive whole number of days, got "${env.RETENTION_DAYS}"`);
    return { tableName: required(env, 'TABLE_NAME'), retentionDays: days };
  },
  notificationTopicArn: (): string => required(env, 'NOTIFICATION_TOPIC_ARN'),
  lifecycleBusName: (): string => required(env, 'LIFECYCLE_BUS_NAME'),
  /** The JSON secret holding the report channels' tokens (PagerDuty, Slack); absent when none is configured. */
  reportSecretArn: (): string | undefined => env.SRE_AGENT_REPORT_SECRET_ARN?.trim() || undefined,
  model: (): ModelConfig => modelConfigFromEnv(env),
  investigation: (): InvestigationSettings => investigationSettingsFromEnv(env),
  /** The AWS tools' settings (`SRE_AGENT_AWS_TOOLS`, JSON) and the account and region the stack runs in. */
  awsTools: (): { settings: AwsToolSettings; home: { accountId?: string; region: string } } => ({
    settings: jsonSetting(env, 'SRE_AGENT_AWS_TOOLS', awsToolSettings),
    home: { region: required(env, 'AWS_REGION'), ...(env.STACK_ACCOUNT_ID ? { accountId: env.STACK_ACCOUNT_ID } : {}) },
  }),
});
export type StackEnvironment = ReturnType<typeof stackEnvironment>;
