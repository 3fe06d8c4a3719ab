import { describe, expect, it } from 'vitest';
import { generateLogCorpus } from '../../bench/masking.ts';
import { Masker } from '../../lib/masking/index.ts';

/**
 * Realistic log lines from the sources the agent reads. Each sample lists the raw identifiers it
 * holds (none may survive) and words that carry meaning (all must survive).
 */
interface Sample {
  source: string;
  text: string;
  raw: string[];
  kept: string[];
}

const ACCOUNT = '123456789012';
const OTHER_ACCOUNT = '210987654321';

const samples: Sample[] = [
  {
    source: 'CloudWatch Logs (Lambda)',
    text: [
      'START RequestId: 3f2a9c1e-7b4d-4e8f-9a6b-1c2d3e4f5a6b Version: $LATEST',
      '2024-01-15T10:15:30.123Z\t3f2a9c1e-7b4d-4e8f-9a6b-1c2d3e4f5a6b\tERROR\tInvoke Error: connect ETIMEDOUT 10.0.3.17:5432 (orders-db.cluster-c9akciq32.us-east-1.rds.amazonaws.com) after 5000ms',
      '2024-01-15T10:15:30.456Z\t3f2a9c1e-7b4d-4e8f-9a6b-1c2d3e4f5a6b\tINFO\t{"level":"warn","msg":"retrying","customer":"jane.doe@example.com","table":"arn:aws:dynamodb:us-east-1:123456789012:table/orders","attempt":2}',
      'END RequestId: 3f2a9c1e-7b4d-4e8f-9a6b-1c2d3e4f5a6b',
      'REPORT RequestId: 3f2a9c1e-7b4d-4e8f-9a6b-1c2d3e4f5a6b\tDuration: 5012.34 ms\tBilled Duration: 5013 ms\tMemory Size: 512 MB\tMax Memory Used: 87 MB\tInit Duration: 412.07 ms',
    ].join('\n'),
    raw: ['10.0.3.17', 'orders-db.cluster-c9akciq32.us-east-1.rds.amazonaws.com', 'jane.doe@example.com', ACCOUNT, 'arn:aws:dynamodb'],
    kept: ['START RequestId', 'ERROR', 'Invoke Error', 'ETIMEDOUT', ':5432', 'after 5000ms', 'retrying', 'REPORT RequestId', 'Duration: 5012.34 ms', 'Max Memory Used: 87 MB', '3f2a9c1e-7b4d-4e8f-9a6b-1c2d3e4f5a6b', '2024-01-15T10:15:30.123Z'],
  },
  {
    source: 'CloudTrail',
    text: JSON.stringify({
      eventVersion: '1.09',
      userIdentity: {
        type: 'AssumedRole',
        principalId: 'AROA3XFRBF23EXAMPLE1:deploy-bot',
        arn: `arn:aws:sts::${ACCOUNT}:assumed-role/orders-deploy/deploy-bot`,
        accountId: ACCOUNT,
        accessKeyId: 'ASIAY34FZKBOKMUTVV7A',
        sessionContext: { sessionIssuer: { type: 'Role', principalId: 'AROA3XFRBF23EXAMPLE1', arn: `arn:aws:iam::${ACCOUNT}:role/orders-deploy`, accountId: ACCOUNT, userName: 'orders-deploy' } },
      },
      eventTime: '2024-01-15T10:14:02Z',
      eventSource: 'ec2.amazonaws.com',
      eventName: 'RevokeSecurityGroupIngress',
      awsRegion: 'us-east-1',
      sourceIPAddress: '2600:1f18:4c2a:9b00::17',
      userAgent: 'aws-cli/2.15.10 Python/3.11.6 Linux/5.10.205-195.807.amzn2.x86_64 botocore/2.4.5',
      requestParameters: { groupId: 'sg-0a1b2c3d4e5f67890', ipPermissions: { items: [{ fromPort: 5432, toPort: 5432, ipRanges: { items: [{ cidrIp: '10.0.0.0/16' }] } }] } },
      responseElements: { _return: true },
      requestID: 'c9a3f1e2-5b6d-4a7c-8e9f-0a1b2c3d4e5f',
      eventID: '7e6d5c4b-3a29-4180-9f8e-7d6c5b4a3928',
      readOnly: false,
      eventType: 'AwsApiCall',
      recipientAccountId: OTHER_ACCOUNT,
    }),
    raw: ['AROA3XFRBF23EXAMPLE1', 'deploy-bot', ACCOUNT, 'ASIAY34FZKBOKMUTVV7A', 'orders-deploy', '2600:1f18:4c2a:9b00::17', 'sg-0a1b2c3d4e5f67890', '10.0.0.0', OTHER_ACCOUNT],
    kept: ['AssumedRole', 'RevokeSecurityGroupIngress', 'ec2.amazonaws.com', 'us-east-1', 'aws-cli/2.15.10', '"fromPort":5432', '/16', 'AwsApiCall', '"readOnly":false', 'c9a3f1e2-5b6d-4a7c-8e9f-0a1b2c3d4e5f'],
  },
  {
    source: 'ECS',
    text: [
      `2024-01-15T10:16:00Z [INFO] (service orders-api) has started 1 tasks: (task arn:aws:ecs:us-east-1:${ACCOUNT}:task/prod-cluster/0f1e2d3c4b5a69788796a5b4c3d2e1f0).`,
      '2024-01-15T10:16:04Z [WARN] Task stopped: Essential container in task exited; container orders-api exit code 137 (OOMKilled) on i-0abc123def4567890 eni-0a1b2c3d4e5f60718 10.0.12.34',
      'awslogs-group /ecs/orders-api awslogs-stream ecs/orders-api/0f1e2d3c4b5a69788796a5b4c3d2e1f0',
    ].join('\n'),
    raw: [ACCOUNT, 'i-0abc123def4567890', 'eni-0a1b2c3d4e5f60718', '10.0.12.34', '/ecs/orders-api'],
    kept: ['(service orders-api) has started 1 tasks', 'Essential container in task exited', 'exit code 137', 'OOMKilled', 'awslogs-stream'],
  },
  {
    source: 'RDS for PostgreSQL',
    text: [
      '2024-01-15 10:15:31 UTC:10.0.3.17(53412):orders_app@ordersdb:[2231]:FATAL:  remaining connection slots are reserved for non-replication superuser connections',
      '2024-01-15 10:15:32 UTC:10.0.3.18(53413):orders_app@ordersdb:[2232]:LOG:  connection authorized: user=orders_app database=ordersdb host=orders-db.cluster-xyz.us-east-1.rds.amazonaws.com:5432 SSL enabled',
    ].join('\n'),
    raw: ['10.0.3.17', '10.0.3.18', 'orders_app', 'orders-db.cluster-xyz.us-east-1.rds.amazonaws.com'],
    kept: ['FATAL', 'remaining connection slots are reserved', 'connection authorized', 'database=ordersdb', ':5432', 'SSL enabled', '2024-01-15 10:15:31 UTC'],
  },
  {
    source: 'ALB access log',
    text: `https 2024-01-15T10:15:29.844506Z app/orders-alb/50dc6c495c0c9188 203.0.113.42:51234 10.0.3.17:8080 0.000 5.001 -1 504 - 342 0 "GET https://api.acme-corp.com:443/v1/orders/98765?expand=items HTTP/1.1" "Mozilla/5.0 (Windows NT 10.0; Win64; x64)" ECDHE-RSA-AES128-GCM-SHA256 TLSv1.2 arn:aws:elasticloadbalancing:us-east-1:${ACCOUNT}:targetgroup/orders-tg/73e2d6bc24d8a067 "Root=1-65a5069d-4b2f1c7e0a9d3e6f8b1c2d3e" "api.acme-corp.com" "arn:aws:acm:us-east-1:${ACCOUNT}:certificate/12345678-1234-1234-1234-123456789012" 0 2024-01-15T10:15:24.843000Z "forward" "-" "-" "10.0.3.17:8080" "504" "-" "-"`,
    raw: ['203.0.113.42', '10.0.3.17', 'api.acme-corp.com', ACCOUNT, 'targetgroup/orders-tg', 'certificate/12345678'],
    kept: ['"GET https://', '/v1/orders/98765?expand=items HTTP/1.1', ' 504 ', 'ECDHE-RSA-AES128-GCM-SHA256', 'TLSv1.2', '"forward"', 'Root=1-65a5069d-4b2f1c7e0a9d3e6f8b1c2d3e', ':51234', ':8080'],
  },
  {
    source: 'Kubernetes and ElastiCache',
    text: [
      'Warning  BackOff  pod/checkout-api-7d9f8b6c5-x2x4z  Back-off restarting failed container on node ip-10-0-1-5.ec2.internal',
      'Error: READONLY You can\'t write against a read only replica. redis://orders-cache.abc123.ng.0001.use1.cache.amazonaws.com:6379',
      'Uploaded s3://acme-orders-exports-2024/daily/2024-01-15.csv.gz to bucket acme-orders-exports-2024; log group /aws/lambda/orders-export',
    ].join('\n'),
    raw: ['checkout-api-7d9f8b6c5-x2x4z', 'ip-10-0-1-5.ec2.internal', 'orders-cache.abc123.ng.0001.use1.cache.amazonaws.com', 'acme-orders-exports-2024', '/aws/lambda/orders-export'],
    kept: ['BackOff', 'Back-off restarting failed container', 'READONLY', 'read only replica', 'redis://', ':6379', '/daily/2024-01-15.csv.gz', 'Uploaded s3://'],
  },
];

describe('realistic AWS logs', () => {
  for (const sample of samples) {
    it(`masks every identifier in ${sample.source} and keeps the words that carry meaning`, () => {
      const masker = new Masker();
      const masked = masker.mask(sample.text);
      for (const value of sample.raw) expect(masked, `${value} leaked`).not.toContain(value);
      for (const phrase of sample.kept) expect(masked, `${phrase} was lost`).toContain(phrase);
      expect(masker.findLeaks(masked)).toEqual([]);
      const restored = masker.unmask(masked);
      // CloudTrail's access key id is a secret: redacted, never restored. Everything else comes back.
      expect(restored).toBe(sample.text.replace('ASIAY34FZKBOKMUTVV7A', '[REDACTED:aws_access_key_id]'));
    });
  }

  it('masks a parsed CloudTrail record field by field, keys included, numbers left alone', () => {
    const masker = new Masker();
    const record = JSON.parse(samples[1]!.text) as Record<string, unknown>;
    const masked = masker.maskJson({ ...record, byAddress: { '10.0.3.17': 3 } });
    const text = JSON.stringify(masked);
    for (const value of samples[1]!.raw) expect(text).not.toContain(value);
    expect(text).toContain('"byAddress":{"<IP_');
    expect(text).toContain('"fromPort":5432');
    expect(masker.findLeaks(text)).toEqual([]);
    expect(masker.unmaskJson(masked)).toEqual({
      ...record,
      userIdentity: { ...(record['userIdentity'] as object), accessKeyId: '[REDACTED:aws_access_key_id]' },
      byAddress: { '10.0.3.17': 3 },
    });
  });

  it('masks a generated multi-source corpus without a leak', () => {
    const corpus = generateLogCorpus(400_000, 7);
    const masker = new Masker();
    let leaks = 0;
    for (let start = 0; start < corpus.lines.length; start += 500) {
      const lines = corpus.lines.slice(start, start + 500);
      const masked = masker.mask(lines.map((line) => line.text).join('\n')).split('\n');
      expect(masked).toHaveLength(lines.length);
      lines.forEach((line, index) => {
        for (const raw of line.raw) if (masked[index]!.includes(raw)) leaks += 1;
      });
      expect(masker.findLeaks(masked.join('\n'))).toEqual([]);
    }
    expect(leaks).toBe(0);
  });
});
