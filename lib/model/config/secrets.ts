import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SecretReadError } from '../providers/errors.ts';

export interface SecretCacheOptions {
  /** An injected client; default one built for `region` (or the SDK's region chain). */
  client?: SecretsManagerClient;
  region?: string;
  /** How long a read secret is reused; default 5 minutes. 0 reads it on every use. */
  ttlMs?: number;
  now?: () => number;
  /** The setting named in errors; default `SRE_AGENT_MODEL_SECRET_ARN`. */
  setting?: string;
}

interface Entry {
  value: Record<string, string>;
  expiresAt: number;
}

/**
 * JSON secrets from Secrets Manager, kept in memory for a TTL. Concurrent reads share one request;
 * when a refresh fails after expiry the last good value is served (and the next use tries again).
 */
export class SecretCache {
  private readonly client: SecretsManagerClient;
  private readonly ttlMs: number;
  private readonly now: () => number;
  private readonly setting: string;
  private readonly entries = new Map<string, Entry>();
  private readonly inFlight = new Map<string, Promise<Record<string, string>>>();

  constructor(options: SecretCacheOptions = {}) {
    this.client = options.client ?? new SecretsManagerClient(options.region === undefined ? {} : { region: options.region });
    this.ttlMs = options.ttlMs ?? 5 * 60_000;
    this.now = options.now ?? Date.now;
    this.setting = options.setting ?? 'SRE_AGENT_MODEL_SECRET_ARN';
  }

  /** The secret's JSON object of string values. */
  async getJson(secretId: string): Promise<Record<string, string>> {
    const entry = this.entries.get(secretId);
    if (entry && this.now() < entry.expiresAt) return entry.value;
    const pending = this.inFlight.get(secretId);
    if (pending) return pending;
    const read = this.read(secretId)
      .then((value) => {
        this.entries.set(secretId, { value, expiresAt: this.now() + this.ttlMs });
        return value;
      })
      .catch((error: unknown) => {
        if (entry) return entry.value;
        throw error;
      })
      .finally(() => this.inFlight.delete(secretId));
    this.inFlight.set(secretId, read);
    return read;
  }

  /** One value of the secret, or undefined when the secret has no such key. */
  async getValue(secretId: string, key: string): Promise<string | undefined> {
    const value = (await this.getJson(secretId))[key];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  }

  /** Forgets cached values (all, or one secret's). */
  clear(secretId?: string): void {
    if (secretId === undefined) this.entries.clear();
    else this.entries.delete(secretId);
  }

  private async read(secretId: string): Promise<Record<string, string>> {
    let text: string | undefined;
    try {
      const output = await this.client.send(new GetSecretValueCommand({ SecretId: secretId }));
      text = output.SecretString ?? (output.SecretBinary ? Buffer.from(output.SecretBinary).toString('utf8') : undefined);
    } catch (error) {
      const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      throw new SecretReadError(`could not read the secret ${this.setting}=${secretId} (${reason})`, this.setting, { cause: error });
    }
    if (text === undefined) throw new SecretReadError(`the secret ${this.setting}=${secretId} has no value`, this.setting);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new SecretReadError(`the secret ${this.setting}=${secretId} is not JSON; expected {"OPENAI_API_KEY": "...", "ANTHROPIC_API_KEY": "..."}`, this.setting);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new SecretReadError(`the secret ${this.setting}=${secretId} is not a JSON object; expected {"OPENAI_API_KEY": "...", "ANTHROPIC_API_KEY": "..."}`, this.setting);
    }
    return Object.fromEntries(Object.entries(value).filter((pair): pair is [string, string] => typeof pair[1] === 'string'));
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
