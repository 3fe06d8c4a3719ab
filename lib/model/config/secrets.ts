import { SecretsProvider } from '@aws-lambda-powertools/parameters/secrets';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { z } from 'zod';
import { SecretReadError } from '../providers/errors.ts';

export interface SecretCacheOptions {
  /** An injected client; default one built for `region` (or the SDK's region chain). */
  client?: SecretsManagerClient;
  region?: string;
  /** How long a read secret is reused (Powertools `maxAge`, whole seconds, rounded up); default 5 minutes. 0 reads it on every use. */
  ttlMs?: number;
  /** The setting named in errors; default `SRE_AGENT_MODEL_SECRET_ARN`. */
  setting?: string;
}

const EXPECTED_SHAPE = '{"OPENAI_API_KEY": "...", "ANTHROPIC_API_KEY": "..."}';
const secretObject = z.record(z.string(), z.unknown());

/**
 * JSON secrets from Secrets Manager through Powertools Parameters, which caches each for `maxAge`.
 * When a refresh fails after expiry the last good value is served (and the next use tries again).
 */
export class SecretCache {
  private readonly provider: SecretsProvider;
  private readonly maxAgeSeconds: number;
  private readonly setting: string;
  // Powertools drops an expired value before refetching; a Secrets Manager blip should not cost an investigation its key.
  private readonly lastGood = new Map<string, Record<string, string>>();

  constructor(options: SecretCacheOptions = {}) {
    this.provider = new SecretsProvider({
      awsSdkV3Client: options.client ?? new SecretsManagerClient(options.region === undefined ? {} : { region: options.region }),
    });
    this.maxAgeSeconds = Math.ceil((options.ttlMs ?? 5 * 60_000) / 1000);
    this.setting = options.setting ?? 'SRE_AGENT_MODEL_SECRET_ARN';
  }

  /** The secret's JSON object of string values. */
  async getJson(secretId: string): Promise<Record<string, string>> {
    let raw: string | Uint8Array | undefined;
    try {
      raw = await this.provider.get(secretId, { maxAge: this.maxAgeSeconds });
    } catch (error) {
      const lastGood = this.lastGood.get(secretId);
      if (lastGood) return lastGood;
      const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
      const reason = cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause);
      throw new SecretReadError(`could not read the secret ${this.setting}=${secretId} (${reason})`, this.setting, { cause: error });
    }
    const value = this.parse(secretId, raw);
    this.lastGood.set(secretId, value);
    return value;
  }

  /** One value of the secret, or undefined when the secret has no such key. */
  async getValue(secretId: string, key: string): Promise<string | undefined> {
    const value = (await this.getJson(secretId))[key];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  }

  private parse(secretId: string, raw: string | Uint8Array | undefined): Record<string, string> {
    if (raw === undefined) throw new SecretReadError(`the secret ${this.setting}=${secretId} has no value`, this.setting);
    const text = typeof raw === 'string' ? raw : Buffer.from(raw).toString('utf8');
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new SecretReadError(`the secret ${this.setting}=${secretId} is not JSON; expected ${EXPECTED_SHAPE}`, this.setting);
    }
    const parsed = secretObject.safeParse(value);
    if (!parsed.success) throw new SecretReadError(`the secret ${this.setting}=${secretId} is not a JSON object; expected ${EXPECTED_SHAPE}`, this.setting);
    return Object.fromEntries(Object.entries(parsed.data).filter((pair): pair is [string, string] => typeof pair[1] === 'string'));
  }
}

const shared = new Map<string, SecretCache>();

/** One cache per region and TTL for the process, so a warm Lambda reuses what it read. */
export const sharedSecretCache = (options: { region?: string | undefined; ttlMs?: number | undefined } = {}): SecretCache => {
  const key = `${options.region ?? ''}|${options.ttlMs ?? ''}`;
  let cache = shared.get(key);
  if (!cache) {
    cache = new SecretCache({
      ...(options.region === undefined ? {} : { region: options.region }),
      ...(options.ttlMs === undefined ? {} : { ttlMs: options.ttlMs }),
    });
    shared.set(key, cache);
  }
  return cache;
};
