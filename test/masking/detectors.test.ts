import { describe, expect, it } from 'vitest';
import { Masker } from '../../lib/masking/index.ts';

/** Each case: input, expected masked output, for a fresh masker. */
const expectMasked = (input: string, expected: string): void => {
  const masker = new Masker();
  const masked = masker.mask(input);
  expect(masked).toBe(expected);
  expect(masker.unmask(masked)).toBe(input);
  expect(masker.findLeaks(masked)).toEqual([]);
};

describe('account ids', () => {
  it.each([
    ['account 123456789012 denied', 'account <ACCOUNT_1> denied'],
    ['"account": "123456789012"', '"account": "<ACCOUNT_1>"'],
    ['"accountId":"123456789012"', '"accountId":"<ACCOUNT_1>"'],
    ['AccountId=123456789012&Action=x', 'AccountId=<ACCOUNT_1>&Action=x'],
    ['Account ID: 1234-5678-9012', 'Account ID: <ACCOUNT_1>'],
    ['recipientAccountId: 123456789012', 'recipientAccountId: <ACCOUNT_1>'],
    ['OwnerId=123456789012', 'OwnerId=<ACCOUNT_1>'],
    // The account id an OpenSearch domain's metrics carry as their ClientId dimension.
    ['{"ClientId": "875502194630"}', '{"ClientId": "<ACCOUNT_1>"}'],
    ['aws_account_id = 123456789012', 'aws_account_id = <ACCOUNT_1>'],
    ['"accounts": ["111111111111", "222222222222"]', '"accounts": ["<ACCOUNT_1>", "<ACCOUNT_2>"]'],
  ])('masks %s', expectMasked);

  it('takes an account id from an ARN and masks it where it later stands alone', () => {
    const masker = new Masker();
    expect(masker.mask('caller 123456789012 then arn:aws:iam::123456789012:role/deploy')).toBe('caller <ACCOUNT_1> then <ARN_1>');
    expect(masker.mask('bare 123456789012 again')).toBe('bare <ACCOUNT_1> again');
    expect(masker.state().entries.map((entry) => entry.type)).toEqual(['ACCOUNT', 'ARN']);
  });
});

describe('ARNs', () => {
  it.each([
    ['arn:aws:lambda:us-east-1:123456789012:function:orders-api failed.', '<ARN_1> failed.'],
    ['(arn:aws:s3:::acme-logs/2024/01/file.gz)', '(<ARN_1>)'],
    ['arn:aws-us-gov:iam::123456789012:user/ops, arn:aws-cn:sqs:cn-north-1:123456789012:queue', '<ARN_1>, <ARN_2>'],
    ['"arn:aws:logs:us-east-1:123456789012:log-group:/aws/lambda/x:*"', '"<ARN_1>"'],
  ])('masks %s whole', expectMasked);

  it('keeps AWS-managed policy ARNs, which are the same for everyone', () => {
    expectMasked('arn:aws:iam::aws:policy/AdministratorAccess', 'arn:aws:iam::aws:policy/AdministratorAccess');
  });

  it('makes the bucket of an S3 ARN known', () => {
    const masker = new Masker();
    masker.mask('arn:aws:s3:::acme-prod-logs/key');
    expect(masker.mask('reading acme-prod-logs now')).toBe('reading <BUCKET_1> now');
  });
});

describe('AWS resource ids', () => {
  it.each([
    'i-0abc123def4567890', 'i-1a2b3c4d', 'sg-0123456789abcdef0', 'vpc-0a1b2c3d', 'subnet-0123456789abcdef0', 'eni-0a1b2c3d4e5f60718',
    'vol-0a1b2c3d', 'snap-0123456789abcdef0', 'ami-0a1b2c3d', 'igw-0a1b2c3d', 'nat-0123456789abcdef0', 'rtb-0a1b2c3d', 'acl-0a1b2c3d',
    'eipalloc-0a1b2c3d', 'lt-0123456789abcdef0', 'tgw-0123456789abcdef0', 'pcx-0a1b2c3d', 'vpce-0123456789abcdef0', 'fs-0a1b2c3d',
    'db-ABCDEFGHIJKLMNOPQRSTUVWXYZ',
  ])('masks %s', (id) => expectMasked(`on ${id}.`, 'on <RESOURCE_ID_1>.'));

  it('masks an id a name is built from, and leaves a longer hex run alone', () => {
    expectMasked('alarm nat-06d3b8e2-port-allocation-errors fired', 'alarm <RESOURCE_ID_1>-port-allocation-errors fired');
    expectMasked('volume vol-0a1b2c3d-snapshots kept', 'volume <RESOURCE_ID_1>-snapshots kept');
    expectMasked('request i-1a2b3c4d-5e6f7a8b done', 'request i-1a2b3c4d-5e6f7a8b done');
    expectMasked('alarm ec2-i-0c41d7e2a9b36f018-StatusCheckFailed', 'alarm ec2-<RESOURCE_ID_1>-StatusCheckFailed');
  });

  it('masks IAM unique ids', () => expectMasked('role AROA3XFRBF23EXAMPLE1 user AIDAJQABLZS4A3QDU576Q', 'role <IAM_ID_1> user <IAM_ID_2>'));
});

describe('addresses', () => {
  it.each([
    ['from 10.0.3.17:5432', 'from <IP_1>:5432'],
    ['cidr 10.0.0.0/16', 'cidr <IP_1>/16'],
    ['v6 2600:1f18::1 and 2600:1f18:4c2a:9b00::17', 'v6 <IP_1> and <IP_2>'],
    ['[2600:1f18::1]:443', '[<IP_1>]:443'],
    ['2600:1f18:abcd::/56', '<IP_1>/56'],
    ['2001:0db8:85a3:0000:0000:8a2e:0370:7334', '<IP_1>'],
    ['mapped ::ffff:192.0.2.128', 'mapped <IP_1>'],
    ['link fe80::1ff:fe23:4567:890a', 'link <IP_1>'],
    ['target storefront-web-10.24.7.19-p99 slow', 'target storefront-web-<IP_1>-p99 slow'],
    ['10.24.7.19-p99 and 192.168.4.2-primary and 172.20.0.5-az1', '<IP_1>-p99 and <IP_2>-primary and <IP_3>-az1'],
  ])('masks %s', expectMasked);
});

describe('host names', () => {
  it.each([
    ['node ip-10-0-3-17.ec2.internal ready', 'node <HOST_1> ready'],
    ['ip-10-0-3-17.us-west-2.compute.internal', '<HOST_1>'],
    ['ec2-54-12-34-56.compute-1.amazonaws.com', '<HOST_1>'],
    ['bare node name ip-10-0-3-17', 'bare node name <HOST_1>'],
    ['printer.local and build.corp and api.example.co.uk', '<HOST_1> and <HOST_2> and <HOST_3>'],
    ['orders.prod.svc.cluster.local', '<HOST_1>'],
    ['*.orders.internal', '*.<HOST_1>'],
    ['API.EXAMPLE.COM', '<HOST_1>'],
    ['orders-db.cluster-c9akciq32.us-east-1.rds.amazonaws.com:5432', '<DB_ENDPOINT_1>:5432'],
    ['orders-cache.abc123.ng.0001.use1.cache.amazonaws.com', '<DB_ENDPOINT_1>'],
    ['123456789012.dkr.ecr.us-east-1.amazonaws.com/orders:1.4.2', '<HOST_1>/orders:1.4.2'],
    // Any suffix of the Public Suffix List, not only the common ones.
    ['status.acme.engineer and shop.acme.com.br and api.acme.xn--p1ai', '<HOST_1> and <HOST_2> and <HOST_3>'],
  ])('masks %s', expectMasked);

  it('makes the account of an ECR registry and the bucket of a virtual-hosted S3 host known', () => {
    const masker = new Masker();
    masker.mask('pull 123456789012.dkr.ecr.us-east-1.amazonaws.com/orders from acme-assets.s3.us-east-1.amazonaws.com');
    expect(masker.mask('account 123456789012 bucket acme-assets')).toBe('account <ACCOUNT_1> bucket <BUCKET_1>');
  });
});

describe('e-mails, URLs, buckets, log groups, pods, users', () => {
  it.each([
    ['mail jane.doe+ops@example.com.', 'mail <EMAIL_1>.'],
    ['ec2-user@ip-10-0-0-1.ec2.internal', '<EMAIL_1>'],
    // A logger that starred out the whole local part still leaves the recipient's domain.
    ['SendEmail to=***@outlook.com failed', 'SendEmail to=<EMAIL_1> failed'],
    ['https://api.example.com:8443/v1/orders?id=7#top', 'https://<HOST_1>:8443/v1/orders?id=7#top'],
    ['see (https://docs.example.com/guide).', 'see (https://<HOST_1>/guide).'],
    ['http://10.0.3.17/health and http://[2600:1f18::5]:8080/', 'http://<IP_1>/health and http://[<IP_2>]:8080/'],
    ['redis://:pa55@cache.internal:6379/0', 'redis://:[REDACTED:password]@<HOST_1>:6379/0'],
    ['http://orders-api:8080/health', 'http://orders-api:8080/health'],
    ['s3://acme-orders-exports/2024/01/part-0.csv', 's3://<BUCKET_1>/2024/01/part-0.csv'],
    ['"bucketName": "acme-orders-exports"', '"bucketName": "<BUCKET_1>"'],
    ['copied to bucket acme-orders-exports.', 'copied to bucket <BUCKET_1>.'],
    ['log group /aws/lambda/orders-api, /ecs/payments', 'log group <LOG_GROUP_1>, <LOG_GROUP_2>'],
    ['"logGroupName": "orders-app-logs"', '"logGroupName": "<LOG_GROUP_1>"'],
    ['pod/orders-api-7d9f8b6c5-x2x4z OOMKilled', 'pod/<POD_1> OOMKilled'],
    ['user=alice username: bob "userName": "Carol Smith"', 'user=<USER_1> username: <USER_2> "userName": "<USER_3>"'],
    ['user=svc-deploy: denied', 'user=<USER_1>: denied'],
  ])('masks %s', (input, expected) => {
    const masker = new Masker();
    const masked = masker.mask(input);
    expect(masked).toBe(expected);
    expect(masker.unmask(masked)).toBe(input.replace('pa55', '[REDACTED:password]'));
  });

  it('masks a context-learned user wherever it later stands, even earlier in the same text', () => {
    const masker = new Masker();
    expect(masker.mask('svc-deploy logged in; user=svc-deploy')).toBe('<USER_1> logged in; user=<USER_1>');
    expect(masker.mask('svc-deploy again')).toBe('<USER_1> again');
  });

  it('does not hunt a plain-word user name through prose', () => {
    const masker = new Masker();
    expect(masker.mask('user=root')).toBe('user=<USER_1>');
    expect(masker.mask('root cause found')).toBe('root cause found');
  });
});

describe('overlaps', () => {
  it('resolves the longest, most specific detection', () => {
    const masker = new Masker();
    // An ARN holding an account id is one ARN; the account id alone elsewhere is an ACCOUNT.
    expect(masker.mask('arn:aws:sqs:us-east-1:123456789012:orders-dlq')).toBe('<ARN_1>');
    expect(masker.mask('"accountId": "123456789012"')).toBe('"accountId": "<ACCOUNT_1>"');
    // A URL keeps its scheme and path; its host is masked.
    expect(masker.mask('https://orders.acme-corp.com/api/v1')).toBe('https://<HOST_1>/api/v1');
    // A host that starts with an address-like label is one host.
    expect(masker.mask('ip-10-0-3-17.ec2.internal')).toBe('<HOST_2>');
    // An e-mail wins over the host inside it.
    expect(masker.mask('ops@orders.acme-corp.com')).toBe('<EMAIL_1>');
  });
});
