import { AssumeRoleCommand, STSClient } from '@aws-sdk/client-sts';
import { AwsClients, type AwsBackend } from '../clients.ts';

/** The one API action a remediation may take, on the one resource it names. */
export interface ActionGrant {
  action: string;
  resource: string;
}

/** Clients whose credentials allow only the grant; the remediation tools make every change through them. */
export type NarrowedClients = (grant: ActionGrant) => Promise<AwsClients>;

/** A session policy intersects the role's own: whatever the role allows, the session may take this action on this resource only. */
export const sessionPolicy = (grant: ActionGrant): string =>
  JSON.stringify({ Version: '2012-10-17', Statement: [{ Effect: 'Allow', Action: grant.action, Resource: grant.resource }] });

/** Short sessions: one action, then the credentials are dropped. */
const SESSION_SECONDS = 900;

/** Assumes the remediation role once per action, with a session policy that allows that action on that resource alone. */
export const narrowedByRole = (options: {
  roleArn: string;
  region: string;
  externalId?: string;
  sts?: STSClient;
  /** Where the narrowed clients' calls go with the session's credentials: AWS itself unless an emulation answers them. */
  backend?: (credentials: { accessKeyId: string; secretAccessKey: string; sessionToken?: string }) => AwsBackend;
}): NarrowedClients => {
  const sts = options.sts ?? new STSClient({ region: options.region, retryMode: 'adaptive' });
  return async (grant) => {
    const { Credentials: assumed } = await sts.send(
      new AssumeRoleCommand({
        RoleArn: options.roleArn,
        RoleSessionName: 'sre-agent-remediation',
        DurationSeconds: SESSION_SECONDS,
        Policy: sessionPolicy(grant),
        ...(options.externalId ? { ExternalId: options.externalId } : {}),
      }),
    );
    if (!assumed?.AccessKeyId || !assumed.SecretAccessKey) throw new Error(`assuming ${options.roleArn} for ${grant.action} returned no credentials`);
    const credentials = {
      accessKeyId: assumed.AccessKeyId,
      secretAccessKey: assumed.SecretAccessKey,
      ...(assumed.SessionToken ? { sessionToken: assumed.SessionToken } : {}),
    };
    return new AwsClients(options.region, options.backend ? options.backend(credentials) : { kind: 'live', credentials: async () => credentials });
  };
};
