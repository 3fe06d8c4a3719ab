import { SecretsProvider } from '@aws-lambda-powertools/parameters/secrets';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { z } from 'zod';

/** The report channels' credentials: on AWS in one JSON secret, locally in the environment under the same names. */
export const REPORT_SECRET_KEYS = ['PAGERDUTY_API_TOKEN', 'SLACK_BOT_TOKEN', 'SLACK_WEBHOOK_URL'] as const;

const EXPECTED_SHAPE = `a JSON object with any of ${REPORT_SECRET_KEYS.join(', ')} as string values`;
const reportSecret = z.object(Object.fromEntries(REPORT_SECRET_KEYS.map((key) => [key, z.string().optional()])) as Record<(typeof REPORT_SECRET_KEYS)[number], z.ZodOptional<z.ZodString>>);

/** Why the report secret could not be used; it never carries the secret's value. */
export class ReportSecretError extends Error {
  override readonly name = 'ReportSecretError';
}

/** A rotated token is picked up within five minutes, without a deploy. */
const DEFAULT_MAX_AGE_SECONDS = 300;

export interface ReportSecretOptions {
  client?: SecretsManagerClient;
  maxAgeSeconds?: number;
}

/**
 * Reads the report secret through Powertools Parameters, cached for `maxAgeSeconds`. The value is
 * parsed here rather than by Powertools' JSON transform, whose error would quote the value.
 */
export const secretsManagerReportSecret = (secretArn: string, options: ReportSecretOptions = {}): (() => Promise<Record<string, string>>) => {
  const provider = new SecretsProvider({ awsSdkV3Client: options.client ?? new SecretsManagerClient({}) });
  const maxAge = options.maxAgeSeconds ?? DEFAULT_MAX_AGE_SECONDS;
  return async () => {
    let raw: string | Uint8Array | undefined;
    try {
      raw = await provider.get(secretArn, { maxAge });
    } catch (error) {
      const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
      throw new ReportSecretError(`could not read the report secret SRE_AGENT_REPORT_SECRET_ARN=${secretArn} (${cause instanceof Error ? cause.name : 'error'})`, { cause: error });
    }
    if (raw === undefined) throw new ReportSecretError(`the report secret ${secretArn} has no value; store ${EXPECTED_SHAPE}`);
    let value: unknown;
    try {
      value = JSON.parse(typeof raw === 'string' ? raw : Buffer.from(raw).toString('utf8'));
    } catch {
      throw new ReportSecretError(`the report secret ${secretArn} is not JSON; store ${EXPECTED_SHAPE}`);
    }
    const parsed = reportSecret.safeParse(value);
    if (!parsed.success) {
      const where = parsed.error.issues.map((issue) => issue.path.join('.') || '(the whole value)').join(', ');
      throw new ReportSecretError(`the report secret ${secretArn} is not ${EXPECTED_SHAPE} (wrong: ${where})`);
    }
    return Object.fromEntries(Object.entries(parsed.data).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  };
};

/**
 * The report channels' settings: the environment's, with the credentials taken from the secret when
 * there is one (on AWS), so a token can never come from a plain environment variable there.
 */
export const reportSettings = (env: Record<string, string | undefined>, secret: (() => Promise<Record<string, string>>) | undefined) => async (): Promise<Record<string, string | undefined>> => {
  if (!secret) return env;
  const settings: Record<string, string | undefined> = { ...env };
  for (const key of REPORT_SECRET_KEYS) delete settings[key];
  return { ...settings, ...(await secret()) };
};
