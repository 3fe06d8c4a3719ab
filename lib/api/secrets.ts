import { getSecret } from '@aws-lambda-powertools/parameters/secrets';
import type { SecretReader } from './ports.ts';

/** Secrets are cached for five minutes, so a rotated webhook secret is picked up without a deploy. */
const SECRET_MAX_AGE_SECONDS = 300;

/** On AWS: the webhook secret from Secrets Manager (a plain string secret), through Powertools Parameters. */
export const secretsManagerSecrets = (webhookSecretArn: string | undefined): SecretReader => ({
  pagerDutyWebhookSecret: async () => {
    if (!webhookSecretArn) return undefined;
    const value = await getSecret<string>(webhookSecretArn, { maxAge: SECRET_MAX_AGE_SECONDS });
    return typeof value === 'string' && value !== '' ? value : undefined;
  },
});

/** Locally: PAGERDUTY_WEBHOOK_SECRET. */
export const environmentSecrets = (env: Record<string, string | undefined>): SecretReader => ({
  pagerDutyWebhookSecret: async () => env.PAGERDUTY_WEBHOOK_SECRET || undefined,
});
