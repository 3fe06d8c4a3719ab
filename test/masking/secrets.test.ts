import { describe, expect, it } from 'vitest';
import { Masker } from '../../lib/masking/index.ts';

const SECRET_ACCESS_KEY = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
const JWT = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkphbmUifQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c';
const PEM_BODY = 'MIIEpAIBAAKCAQEA1r7mVq3cGzWbXvYQ9JtJx0sd2wYzN4kqYbQd3Vx6S0lLQWmF';

/** One case per secret kind: the text, the secret inside it, and the kind it must be redacted as. */
const cases: { name: string; text: string; secret: string; kind: string }[] = [
  { name: 'AWS access key id (AKIA)', text: 'key AKIAIOSFODNN7EXAMPLE in use', secret: 'AKIAIOSFODNN7EXAMPLE', kind: 'aws_access_key_id' },
  { name: 'AWS temporary key id (ASIA)', text: '"accessKeyId": "ASIAY34FZKBOKMUTVV7A"', secret: 'ASIAY34FZKBOKMUTVV7A', kind: 'aws_access_key_id' },
  { name: 'secret access key in aws_secret_access_key=', text: `aws_secret_access_key=${SECRET_ACCESS_KEY}`, secret: SECRET_ACCESS_KEY, kind: 'aws_secret_access_key' },
  { name: 'secret access key in JSON SecretAccessKey', text: `{"SecretAccessKey": "${SECRET_ACCESS_KEY}"}`, secret: SECRET_ACCESS_KEY, kind: 'aws_secret_access_key' },
  { name: 'secret access key next to its key id', text: `alice,,AKIAIOSFODNN7EXAMPLE,${SECRET_ACCESS_KEY}`, secret: SECRET_ACCESS_KEY, kind: 'aws_secret_access_key' },
  { name: 'session token field', text: '"SessionToken": "FwoGZXIvYXdzEBYaDH4bP1a2b3c4d5e6f7g8h9i0jKLMNOP"', secret: 'FwoGZXIvYXdzEBYaDH4bP1a2b3c4d5e6f7g8h9i0jKLMNOP', kind: 'aws_session_token' },
  { name: 'session token by its prefix', text: 'creds IQoJb3JpZ2luX2VjEHoaCXVzLWVhc3QtMSJHMEUCIQD9abc/def+ghi= expire', secret: 'IQoJb3JpZ2luX2VjEHoaCXVzLWVhc3QtMSJHMEUCIQD9abc', kind: 'aws_session_token' },
  { name: 'bearer token', text: 'Authorization: Bearer abc123.opaque-TOKEN_value', secret: 'abc123.opaque-TOKEN_value', kind: 'bearer_token' },
  { name: 'basic auth', text: 'curl -H "Authorization: Basic YWRtaW46aHVudGVyMg=="', secret: 'YWRtaW46aHVudGVyMg==', kind: 'basic_auth' },
  { name: 'JWT', text: `id_token issued ${JWT} ok`, secret: JWT, kind: 'jwt' },
  { name: 'PEM private key block', text: `-----BEGIN RSA PRIVATE KEY-----\n${PEM_BODY}\n${PEM_BODY}\n-----END RSA PRIVATE KEY-----\nnext line`, secret: PEM_BODY, kind: 'private_key' },
  { name: 'PEM private key in a JSON string', text: `{"key": "-----BEGIN PRIVATE KEY-----\\n${PEM_BODY}\\n-----END PRIVATE KEY-----\\n"}`, secret: PEM_BODY, kind: 'private_key' },
  { name: 'password in a URL', text: 'DATABASE_URL=postgres://orders:S3cr3t-Pa55@orders-db.internal:5432/orders', secret: 'S3cr3t-Pa55', kind: 'password' },
  { name: 'password in a connection string', text: 'Server=tcp:sql.example.net,1433;User Id=sa;Password=Pa55;word!;Encrypt=true', secret: 'Pa55', kind: 'password' },
  { name: 'password=', text: 'login failed password=hunter2 for bob', secret: 'hunter2', kind: 'password' },
  { name: 'passwd: (YAML)', text: 'db:\n  passwd: correct-horse-battery\n', secret: 'correct-horse-battery', kind: 'password' },
  { name: 'JSON "password" with spaces', text: '{"password": "my secret phrase"}', secret: 'my secret phrase', kind: 'password' },
  { name: 'escaped JSON password', text: '{\\"password\\":\\"esc4ped\\"}', secret: 'esc4ped', kind: 'password' },
  { name: 'secret=', text: 'secret=s3kr1t', secret: 's3kr1t', kind: 'secret' },
  { name: 'token: ', text: 'token: 8d7f6e5d4c3b', secret: '8d7f6e5d4c3b', kind: 'token' },
  { name: 'GITHUB_TOKEN env', text: 'GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789', secret: 'ghp_abcdefghijklmnopqrstuvwxyz0123456789', kind: 'token' },
  { name: 'GitHub token by its prefix', text: 'pushed with ghp_abcdefghijklmnopqrstuvwxyz0123456789', secret: 'ghp_abcdefghijklmnopqrstuvwxyz0123456789', kind: 'github_token' },
  { name: 'api_key=', text: 'GET /v1?api_key=k3y-v4lue&x=1', secret: 'k3y-v4lue', kind: 'api_key' },
  { name: 'apikey:', text: 'apikey: 0123abcd', secret: '0123abcd', kind: 'api_key' },
  { name: 'x-api-key header', text: 'x-api-key: AbCdEf123456', secret: 'AbCdEf123456', kind: 'api_key' },
  { name: 'client_secret', text: '"client_secret": "cl1ent-s3cret"', secret: 'cl1ent-s3cret', kind: 'client_secret' },
  { name: '--password flag', text: 'mysql --user admin --password hunter22 orders', secret: 'hunter22', kind: 'password' },
  { name: 'high-entropy signature', text: 'Signature=fe5f80f77d5fa3beca038a248ff027d0445342fe2855ddc963176630326f1024', secret: 'fe5f80f77d5fa3beca038a248ff027d0445342fe2855ddc963176630326f1024', kind: 'signature' },
  { name: 'high-entropy key', text: '"key": "Zx9Qw8Er7Ty6Ui5Op4As3Df2"', secret: 'Zx9Qw8Er7Ty6Ui5Op4As3Df2', kind: 'key' },
  { name: 'session cookie', text: 'Cookie: session=4f9a8b7c6d5e4f3a2b1c', secret: '4f9a8b7c6d5e4f3a2b1c', kind: 'cookie' },
];

describe('secret redaction', () => {
  for (const { name, text, secret, kind } of cases) {
    it(`redacts ${name} one way`, () => {
      const masker = new Masker();
      const masked = masker.mask(text);
      expect(masked).not.toContain(secret);
      expect(masked).toContain(`[REDACTED:${kind}]`);
      // Never stored, never restorable, and flagged when seen raw.
      expect(JSON.stringify(masker.state())).not.toContain(secret);
      expect(masker.unmask(masked)).not.toContain(secret);
      expect(masker.findLeaks(masked)).toEqual([]);
      const leaks = masker.findLeaks(text);
      expect(leaks.some((leak) => leak.type.startsWith('secret:'))).toBe(true);
      expect(JSON.stringify(leaks)).not.toContain(secret);
    });
  }

  it('redacts secrets in parsed JSON by field name, numbers included', () => {
    const masker = new Masker();
    const masked = masker.maskJson({
      Credentials: { AccessKeyId: 'ASIAY34FZKBOKMUTVV7A', SecretAccessKey: SECRET_ACCESS_KEY, SessionToken: 'short', Expiration: '2024-01-15T11:00:00Z' },
      db: { user: 'orders_app', password: 123456, passwordPolicy: 'strong' },
      headers: { Authorization: `Bearer ${JWT}`, 'x-api-key': 'abc' },
    });
    expect(masked).toEqual({
      Credentials: {
        AccessKeyId: '[REDACTED:aws_access_key_id]',
        SecretAccessKey: '[REDACTED:aws_secret_access_key]',
        SessionToken: '[REDACTED:aws_session_token]',
        Expiration: '2024-01-15T11:00:00Z',
      },
      db: { user: '<USER_1>', password: '[REDACTED:password]', passwordPolicy: 'strong' },
      headers: { Authorization: 'Bearer [REDACTED:bearer_token]', 'x-api-key': '[REDACTED:api_key]' },
    });
    expect(JSON.stringify(masker.state())).not.toMatch(/ASIA|wJalr|123456|abc"/);
  });

  it('keeps pagination tokens, token counts and non-secret look-alikes', () => {
    const masker = new Masker();
    const text = 'nextToken=AAAAAQ== max_tokens: 4096 secret_name: prod/db passwordPolicy=strong "tokenType": "Bearer" isSecret=true';
    expect(masker.mask(text)).toBe(text);
  });

  it('does not redact the already redacted, so masking twice is stable', () => {
    const masker = new Masker();
    const once = masker.mask('password=hunter2 Authorization: Bearer abc123def456 AKIAIOSFODNN7EXAMPLE');
    expect(masker.mask(once)).toBe(once);
    expect(masker.findLeaks(once)).toEqual([]);
  });
});
