import { AssumeRoleCommand, STSClient } from '@aws-sdk/client-sts';
import type { RecordedEnvironment } from '../scenario/recorded-environment.ts';
import { attachEmulation, type ServiceEmulation } from './emulation/emulator.ts';

interface Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  expiration?: Date;
}
type CredentialProvider = () => Promise<Credentials>;

interface SdkClientConfig {
  region: string;
  retryMode: 'adaptive';
  maxAttempts: number;
  credentials?: CredentialProvider | Credentials;
}
export type SdkClientClass<Client> = new (config: SdkClientConfig) => Client;

/** Where the SDK's answers come from: AWS itself, or a recorded environment answering at the SDK boundary. */
export type AwsBackend =
  | { kind: 'live'; credentials?: CredentialProvider }
  | { kind: 'emulated'; environment: RecordedEnvironment; emulations: ReadonlyMap<string, ServiceEmulation> };

/** Refreshes a bit before expiry so a call never starts with credentials about to lapse. */
const EXPIRY_MARGIN_MS = 60_000;

/**
 * Credentials of a read-only role in another account, assumed with the stack's own credentials and
 * renewed before they expire: one deployment investigates every account of an organization.
 */
export const assumedRoleCredentials = (options: {
  roleArn: string;
  externalId?: string;
  sessionSeconds: number;
  region: string;
  sts?: STSClient;
}): CredentialProvider => {
  const sts = options.sts ?? new STSClient({ region: options.region, retryMode: 'adaptive' });
  let current: Credentials | undefined;
  return async () => {
    if (current?.expiration && current.expiration.getTime() - EXPIRY_MARGIN_MS > Date.now()) return current;
    const { Credentials: assumed } = await sts.send(
      new AssumeRoleCommand({
        RoleArn: options.roleArn,
        RoleSessionName: 'sre-agent-investigation',
        DurationSeconds: options.sessionSeconds,
        ...(options.externalId ? { ExternalId: options.externalId } : {}),
      }),
    );
    if (!assumed?.AccessKeyId || !assumed.SecretAccessKey) throw new Error(`assuming ${options.roleArn} returned no credentials`);
    current = {
      accessKeyId: assumed.AccessKeyId,
      secretAccessKey: assumed.SecretAccessKey,
      ...(assumed.SessionToken ? { sessionToken: assumed.SessionToken } : {}),
      ...(assumed.Expiration ? { expiration: assumed.Expiration } : {}),
    };
    return current;
  };
};

/** The tools' SDK clients, one per service, all with the SDK's adaptive retry (throttling is retried by the SDK, not by hand). */
export class AwsClients {
  private readonly made = new Map<string, unknown>();

  constructor(
    readonly region: string,
    private readonly backend: AwsBackend,
  ) {}

  get<Client extends object>(Client: SdkClientClass<Client>): Client {
    const existing = this.made.get(Client.name);
    if (existing) return existing as Client;
    const config: SdkClientConfig = { region: this.region, retryMode: 'adaptive', maxAttempts: 4 };
    if (this.backend.kind === 'live' && this.backend.credentials) config.credentials = this.backend.credentials;
    // Emulated calls never reach AWS, but the SDK still signs them: any static credentials will do.
    if (this.backend.kind === 'emulated') config.credentials = { accessKeyId: 'emulated', secretAccessKey: 'emulated' };
    const client = new Client(config);
    if (this.backend.kind === 'emulated') {
      attachEmulation(client as never, this.backend.emulations.get(Client.name) ?? {}, this.backend.environment);
    }
    this.made.set(Client.name, client);
    return client;
  }
}
