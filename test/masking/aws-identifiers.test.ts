import { describe, expect, it } from 'vitest';
import { Masker } from '../../lib/masking/index.ts';

/**
 * AWS identifiers that reached the model on independent cases (#8, section 5): each is masked,
 * restored for tools and humans, and masked again where it later stands alone. Service names stay.
 */
const expectMasked = (masker: Masker, input: string, expected: string): void => {
  const masked = masker.mask(input);
  expect(masked).toBe(expected);
  expect(masker.unmask(masked)).toBe(input);
  expect(masker.findLeaks(masked)).toEqual([]);
};

describe('AWS identifiers', () => {
  it.each([
    ['TargetGroup=targetgroup/orders-tg/73e2d6bc24d8a067', 'TargetGroup=<TARGET_GROUP_1>'],
    ['"LoadBalancer": "app/orders-alb/50dc6c495c0c9188"', '"LoadBalancer": "<LOAD_BALANCER_1>"'],
    ['nlb net/ingest-nlb/0123456789abcdef healthy', 'nlb <LOAD_BALANCER_1> healthy'],
    ['CloudFront distribution E2QWRUHAPOMQZL returned 502', 'CloudFront distribution <DISTRIBUTION_1> returned 502'],
    ['"DistributionId": "E1ABCDEFGH2JKL"', '"DistributionId": "<DISTRIBUTION_1>"'],
    ['restApiId=a1b2c3d4e5 stage prod', 'restApiId=<API_ID_1> stage prod'],
    ['{"ApiId":"zz9yy8xx7w"}', '{"ApiId":"<API_ID_1>"}'],
    ['"KeyId": "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0"', '"KeyId": "<KMS_KEY_1>"'],
    ['"kmsKeyId": "mrk-1234abcd12ab34cd56ef1234567890ab"', '"kmsKeyId": "<KMS_KEY_1>"'],
    ['ClusterName=payments-cluster', 'ClusterName=<CLUSTER_1>'],
    [
      '{"QueueUrl":"https://sqs.us-east-1.amazonaws.com/210987654321/orders-dlq"}',
      '{"QueueUrl":"https://sqs.us-east-1.amazonaws.com/<ACCOUNT_1>/orders-dlq"}',
    ],
  ])('masks %s', (input, expected) => expectMasked(new Masker(), input, expected));

  it('masks the cluster of an ECS service ARN and keeps its service name', () => {
    expectMasked(
      new Masker(),
      'arn:aws:ecs:us-east-1:123456789012:service/prod-cluster-7/orders-api reached a steady state; cluster prod-cluster-7',
      'arn:aws:ecs:us-east-1:<ACCOUNT_1>:service/<CLUSTER_1>/orders-api reached a steady state; cluster <CLUSTER_1>',
    );
  });

  it('learns the cluster of a task ARN, the key of a KMS key ARN and the API of an execute-api host', () => {
    const masker = new Masker();
    masker.mask('arn:aws:ecs:us-east-1:123456789012:task/shop-cluster/0f1e2d3c4b5a69788796a5b4c3d2e1f0');
    masker.mask('arn:aws:kms:us-east-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab');
    masker.mask('POST https://a1b2c3d4e5.execute-api.us-east-1.amazonaws.com/prod/orders');
    expect(masker.mask('shop-cluster: key 1234abcd-12ab-34cd-56ef-1234567890ab disabled for API a1b2c3d4e5')).toBe(
      '<CLUSTER_1>: key <KMS_KEY_1> disabled for API <API_ID_1>',
    );
  });

  it('masks a known account id inside the hyphenated names AWS builds from it, and only as a whole number', () => {
    const masker = new Masker();
    masker.mask('arn:aws:sns:eu-west-2:508217364935:payment-events');
    expectMasked(
      masker,
      'by assumed-role/cdk-hnb659fds-cfn-exec-role-508217364935-eu-west-2/AWSCloudFormation into aws-athena-query-results-508217364935-eu-west-2',
      'by assumed-role/cdk-hnb659fds-cfn-exec-role-<ACCOUNT_1>-eu-west-2/AWSCloudFormation into aws-athena-query-results-<ACCOUNT_1>-eu-west-2',
    );
    expect(masker.findLeaks('role cdk-hnb659fds-deploy-role-508217364935-eu-west-2')).toEqual([{ type: 'ACCOUNT', placeholder: '<ACCOUNT_1>' }]);
    const longer = 'order 15082173649351 and build v508217364935x';
    expect(masker.mask(longer)).toBe(longer);
  });

  it('masks a distribution id learned in context wherever it stands later', () => {
    const masker = new Masker();
    masker.mask('distribution E2QWRUHAPOMQZL');
    expect(masker.mask('origin errors on E2QWRUHAPOMQZL')).toBe('origin errors on <DISTRIBUTION_1>');
  });

  it('masks metric dimensions written as name/value pairs, and keeps the service dimension', () => {
    const masker = new Masker();
    const dimensions = [
      { Name: 'ClusterName', Value: 'billing-prod' },
      { Name: 'ServiceName', Value: 'orders-api' },
      { Name: 'TargetGroup', Value: 'targetgroup/orders-tg/73e2d6bc24d8a067' },
      { Name: 'DistributionId', Value: 'E9ZYXWVUTS8RQP' },
      { Name: 'ApiId', Value: 'qwertyuiop' },
    ];
    const masked = masker.maskJson({ Dimensions: dimensions });
    expect(masked).toEqual({
      Dimensions: [
        { Name: 'ClusterName', Value: '<CLUSTER_1>' },
        { Name: 'ServiceName', Value: 'orders-api' },
        { Name: 'TargetGroup', Value: '<TARGET_GROUP_1>' },
        { Name: 'DistributionId', Value: '<DISTRIBUTION_1>' },
        { Name: 'ApiId', Value: '<API_ID_1>' },
      ],
    });
    expect(masker.unmaskJson(masked)).toEqual({ Dimensions: dimensions });
  });

  it('masks the account of an SQS URL inside a JSON document embedded in a log message', () => {
    const masker = new Masker();
    const line = `ERROR send failed ${JSON.stringify({ queue: 'https://sqs.eu-west-1.amazonaws.com/310987654321/orders-dlq', error: 'AccessDenied' })}`;
    const { masked, leaks } = masker.maskJsonForModel({ lines: [line, JSON.stringify({ message: line })] });
    expect(leaks).toEqual([]);
    expect(JSON.stringify(masked)).not.toContain('310987654321');
    expect(JSON.stringify(masked)).toContain('https://sqs.eu-west-1.amazonaws.com/<ACCOUNT_1>/orders-dlq');
  });
});

it('masks the account that starts a load balancer source id in a WAF log, and the balancer as anywhere else', () => {
  const masker = new Masker();
  const line = JSON.stringify({ action: 'BLOCK', terminatingRuleId: 'rate-limit-per-ip', httpSourceName: 'ALB', httpSourceId: '893350126477-app/seatswap-public/5d9e1a27c3f40b86' });
  const { masked, leaks } = masker.maskJsonForModel({ message: line });
  expect(leaks).toEqual([]);
  expect(JSON.stringify(masked)).not.toContain('893350126477');
  expect(JSON.stringify(masked)).not.toContain('seatswap-public/5d9e1a27c3f40b86');
  // The balancer gets the placeholder it gets where a metric names it.
  const dimension = masker.maskJsonForModel({ LoadBalancer: 'app/seatswap-public/5d9e1a27c3f40b86' }).masked as { LoadBalancer: string };
  expect(JSON.stringify(masked)).toContain(`<ACCOUNT_1>-${dimension.LoadBalancer}`);
  expect(masker.unmaskJson(masked)).toEqual({ message: line });
  // An order number that runs into a word is no account.
  expect(JSON.stringify(masker.maskJsonForModel({ message: 'order 202401151015-apple/2 shipped' }).masked)).toContain('202401151015-apple/2');
});

describe('AWS identifier look-alikes stay', () => {
  it.each([
    ['upper-case words and codes of fourteen characters', 'ENVIRONMENTVAR1 EXCEPTIONAL123 E1234567890123 ERRCONNREFUSED'],
    ['an E-id with no word saying it is a distribution', 'build E2QWRUHAPOMQZL finished'],
    ['ten lower-case characters that are words', 'apiVersion: production and restarting'],
    ['a UUID that is a request id', 'RequestId: 0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0'],
    ['paths that look like ELB ids but are not hex', 'GET /app/orders/checkout and app/orders-alb/notahexvalue12'],
    ['a cluster count', 'cluster: 3 nodes ready'],
    ['public AWS URLs without an account in the path', 'https://sqs.us-east-1.amazonaws.com/ and https://s3.amazonaws.com/202401151015/x'],
    ['service names and metric names', 'ServiceName=orders-api TargetResponseTime HTTPCode_Target_5XX_Count'],
  ])('leaves %s alone', (_, text) => {
    const masker = new Masker();
    expect(masker.mask(text)).toBe(text);
    expect(masker.state().entries).toEqual([]);
  });
});
