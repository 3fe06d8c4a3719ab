import { Hash } from '@smithy/hash-node';
import { SignatureV4 } from '@smithy/signature-v4';

export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

/** `defaultProvider()` of `@aws-sdk/credential-provider-node` in the command; static credentials in tests. */
export type CredentialsProvider = () => Promise<AwsCredentials>;

/** Whose identity signs the forwarded requests, and for which region. */
export interface SigningIdentity {
  region: string;
  credentials: CredentialsProvider;
}

export interface RequestToSign {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body?: Uint8Array;
}

/** The service name API Gateway checks in a SigV4 credential scope. */
export const EXECUTE_API = 'execute-api';

const queryOf = (params: URLSearchParams): Record<string, string | string[]> => {
  const query: Record<string, string | string[]> = {};
  for (const name of new Set(params.keys())) {
    const values = params.getAll(name);
    query[name] = values.length === 1 ? values[0]! : values;
  }
  return query;
};

/**
 * The request's headers plus `authorization`, `x-amz-date`, `x-amz-content-sha256` and, for
 * temporary credentials, `x-amz-security-token`, signed by the SDK's own signer. The host signed is
 * the URL's, which is the one `fetch` sends.
 */
export const signedHeaders = async (request: RequestToSign, identity: SigningIdentity): Promise<Record<string, string>> => {
  const signer = new SignatureV4({ service: EXECUTE_API, region: identity.region, credentials: identity.credentials, sha256: Hash.bind(null, 'sha256') });
  const { url } = request;
  const signed = await signer.sign({
    method: request.method,
    protocol: url.protocol,
    hostname: url.hostname,
    ...(url.port ? { port: Number(url.port) } : {}),
    path: url.pathname,
    query: queryOf(url.searchParams),
    headers: { ...request.headers, host: url.host },
    ...(request.body ? { body: request.body } : {}),
  });
  return signed.headers;
};
