import { DescribeServicesCommand, DescribeTaskDefinitionCommand, ECSClient } from '@aws-sdk/client-ecs';
import { GetResourcesCommand, ResourceGroupsTaggingAPIClient } from '@aws-sdk/client-resource-groups-tagging-api';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { kindOfArn, dimensionsOfArn } from '../../../integrations/aws/catalog/arn-resources.ts';
import { TaggedServiceCatalog, taggedCatalog } from '../../../integrations/aws/catalog/tagged-catalog.ts';
import { AwsClients } from '../../../integrations/aws/clients.ts';
import { scenarioEmulations } from '../../../integrations/aws/emulation/index.ts';
import { dimensionsOf, serviceArnOf } from '../../../integrations/aws/emulation/service-identity.ts';
import { awsToolSettings } from '../../../integrations/aws/settings.ts';
import { RecordedEnvironment } from '../../../integrations/scenario/recorded-environment.ts';
import type { Scenario } from '../../../lib/domain/scenario.ts';
import { BUNDLED_SCENARIOS_DIR, parseScenarioText } from '../../../local/scenario-files.ts';

const tagging = mockClient(ResourceGroupsTaggingAPIClient);
const ecs = mockClient(ECSClient);
afterEach(() => {
  tagging.reset();
  ecs.reset();
});

const catalog = (settings: Record<string, unknown> = {}) => new TaggedServiceCatalog(new AwsClients('us-east-1', { kind: 'live' }), awsToolSettings.parse(settings));
const tag = (Key: string, Value: string) => ({ Key, Value });

describe('the tagged service catalog', () => {
  it('follows PaginationToken, groups resources by the service tag and derives kind, dimensions and log groups', async () => {
    tagging
      .on(GetResourcesCommand, { PaginationToken: undefined })
      .resolves({
        PaginationToken: 'page-2',
        ResourceTagMappingList: [
          { ResourceARN: 'arn:aws:lambda:us-east-1:123456789012:function:resize', Tags: [tag('service', 'image-resizer'), tag('team', 'media')] },
          { ResourceARN: 'arn:aws:ecs:us-east-1:123456789012:service/prod/orders-api', Tags: [tag('service', 'orders-api')] },
        ],
      })
      .on(GetResourcesCommand, { PaginationToken: 'page-2' })
      .resolves({
        PaginationToken: '',
        ResourceTagMappingList: [
          { ResourceARN: 'arn:aws:elasticloadbalancing:us-east-1:123456789012:targetgroup/orders-tg/73e2d6bc24d8a067', Tags: [tag('service', 'orders-api')] },
          { ResourceARN: 'arn:aws:rds:us-east-1:123456789012:db:orders-db', Tags: [tag('service', 'orders-db')] },
          { ResourceARN: 'arn:aws:logs:us-east-1:123456789012:log-group:/app/orders-db-proxy', Tags: [tag('service', 'orders-db')] },
        ],
      });
    ecs.on(DescribeServicesCommand).resolves({
      services: [{ serviceArn: 'arn:aws:ecs:us-east-1:123456789012:service/prod/orders-api', taskDefinition: 'arn:aws:ecs:us-east-1:123456789012:task-definition/orders:7' }],
    });
    ecs.on(DescribeTaskDefinitionCommand).resolves({
      taskDefinition: {
        containerDefinitions: [
          { name: 'app', logConfiguration: { logDriver: 'awslogs', options: { 'awslogs-group': '/ecs/orders-api', 'awslogs-region': 'us-east-1' } } },
          { name: 'sidecar', logConfiguration: { logDriver: 'awsfirelens' } },
        ],
      },
    });
    const subject = catalog({ logGroups: { 'image-resizer': ['/custom/resizer'] } });
    const services = await subject.services();

    expect(tagging.commandCalls(GetResourcesCommand)).toHaveLength(2);
    expect(services.map(({ name, kind, logGroups }) => ({ name, kind, logGroups }))).toEqual([
      { name: 'image-resizer', kind: 'lambda', logGroups: ['/aws/lambda/resize', '/custom/resizer'] },
      { name: 'orders-api', kind: 'ecs', logGroups: ['/ecs/orders-api'] },
      { name: 'orders-db', kind: 'rds', logGroups: ['/app/orders-db-proxy'] },
    ]);
    expect(services[0]?.tags).toEqual({ service: 'image-resizer', team: 'media' });
    expect(services[1]?.dimensions).toEqual([{ ClusterName: 'prod', ServiceName: 'orders-api' }, { TargetGroup: 'targetgroup/orders-tg/73e2d6bc24d8a067' }]);

    await expect(subject.serviceOfDimensions({ FunctionName: 'resize' })).resolves.toBe('image-resizer');
    await expect(subject.serviceOfDimensions({ TargetGroup: 'targetgroup/orders-tg/73e2d6bc24d8a067', LoadBalancer: 'app/pub/1' })).resolves.toBe('orders-api');
    await expect(subject.serviceOfDimensions({ DBInstanceIdentifier: 'orders-db' })).resolves.toBe('orders-db');
    await expect(subject.serviceOfDimensions({ QueueName: 'unrelated' })).resolves.toBeUndefined();
    await expect(subject.serviceOfArn('arn:aws:lambda:us-east-1:123456789012:function:resize:live')).resolves.toBe('image-resizer');
    await expect(subject.serviceOfLogGroup('123456789012:/ecs/orders-api')).resolves.toBe('orders-api');
    await expect(subject.serviceOfLogGroup('/aws/lambda/resize')).resolves.toBe('image-resizer');
    // One read of the account per catalog instance.
    await subject.services();
    expect(tagging.commandCalls(GetResourcesCommand)).toHaveLength(2);
    expect(ecs.commandCalls(DescribeTaskDefinitionCommand)).toHaveLength(1);
  });

  it('reports a denied GetResources as a problem and still serves the log groups from settings', async () => {
    tagging.on(GetResourcesCommand).rejects(Object.assign(new Error('User is not authorized to perform: tag:GetResources'), { name: 'AccessDeniedException' }));
    const subject = catalog({ logGroups: { checkout: ['/ecs/checkout'] } });
    await expect(subject.services()).resolves.toEqual([{ name: 'checkout', arns: [], tags: {}, logGroups: ['/ecs/checkout'], dimensions: [] }]);
    expect(subject.problems[0]).toMatch(/tag:GetResources/);
  });

  it('names a target group after the service it fronts when no dimension set matches exactly', async () => {
    tagging.on(GetResourcesCommand).resolves({
      ResourceTagMappingList: [{ ResourceARN: 'arn:aws:ecs:us-east-1:123456789012:service/shop/order-service', Tags: [tag('service', 'order-service')] }],
    });
    ecs.on(DescribeServicesCommand).resolves({ services: [] });
    await expect(catalog().serviceOfDimensions({ TargetGroup: 'targetgroup/order-service/abc' })).resolves.toBe('order-service');
  });

  it("gives a metric carrying a load balancer and one of its target groups to the target group's service, not the load balancer's", async () => {
    tagging.on(GetResourcesCommand).resolves({
      ResourceTagMappingList: [
        { ResourceARN: 'arn:aws:elasticloadbalancing:us-east-1:123456789012:loadbalancer/app/edge/1f2e', Tags: [tag('service', 'alb-edge')] },
        { ResourceARN: 'arn:aws:elasticloadbalancing:us-east-1:123456789012:targetgroup/tg-7/9a8b', Tags: [tag('service', 'checkout')] },
      ],
    });
    ecs.on(DescribeServicesCommand).resolves({ services: [] });
    const subject = catalog();
    await expect(subject.serviceOfDimensions({ LoadBalancer: 'app/edge/1f2e', TargetGroup: 'targetgroup/tg-7/9a8b' })).resolves.toBe('checkout');
    await expect(subject.serviceOfDimensions({ LoadBalancer: 'app/edge/1f2e', AvailabilityZone: 'us-east-1a' })).resolves.toBe('alb-edge');
  });

  it('does not give a metric to a third party its dimension values name, unless a Service dimension does', async () => {
    tagging.on(GetResourcesCommand).resolves({
      ResourceTagMappingList: [
        { ResourceARN: 'arn:aws:lambda:us-east-1:123456789012:function:sms-dispatcher', Tags: [tag('service', 'sms-dispatcher')] },
        // A third party the account knows only by its alarm and a log group.
        { ResourceARN: 'arn:aws:cloudwatch:us-east-1:123456789012:alarm:twilio-429s', Tags: [tag('service', 'twilio')] },
        { ResourceARN: 'arn:aws:logs:us-east-1:123456789012:log-group:/app/twilio', Tags: [tag('service', 'twilio')] },
      ],
    });
    const subject = catalog();
    await expect(subject.serviceOfDimensions({ Provider: 'twilio', StatusCode: '429' })).resolves.toBeUndefined();
    await expect(subject.serviceOfDimensions({ Service: 'twilio' })).resolves.toBe('twilio');
    await expect(subject.serviceOfDimensions({ Provider: 'twilio', Service: 'sms-dispatcher' })).resolves.toBe('sms-dispatcher');
    await expect(subject.serviceOfDimensions({ Caller: 'sms-dispatcher' })).resolves.toBe('sms-dispatcher');
  });

  it('derives kinds and dimensions from ARNs', () => {
    expect(kindOfArn('arn:aws:cloudfront::123456789012:distribution/E2Q8XK4M1ZT7RB')).toBe('cloudfront');
    expect(dimensionsOfArn('arn:aws:cloudfront::123456789012:distribution/E2Q8XK4M1ZT7RB')).toEqual([{ DistributionId: 'E2Q8XK4M1ZT7RB' }]);
    expect(dimensionsOfArn('arn:aws:sqs:us-east-1:123456789012:orders')).toEqual([{ QueueName: 'orders' }]);
    expect(dimensionsOfArn('arn:aws:dynamodb:us-east-1:123456789012:table/sessions')).toEqual([{ TableName: 'sessions' }]);
    expect(dimensionsOfArn('arn:aws:elasticloadbalancing:us-east-1:123456789012:loadbalancer/app/pub/2d4f')).toEqual([{ LoadBalancer: 'app/pub/2d4f' }]);
    expect(kindOfArn('arn:aws:apigateway:us-east-1::/restapis/k3v9q2m7xa')).toBe('apigateway');
  });

  it('derives the dimensions of resources that are a service without being compute: web ACLs, keys, NAT gateways, zones, caches, certificates, rules, streams', () => {
    const cases: [string, Record<string, string>[]][] = [
      ['arn:aws:wafv2:us-east-1:123456789012:global/webacl/edge-acl/8c3e1f02-7b5d-4a96-b0e4-2d6f9a1c3e57', [{ WebACL: 'edge-acl' }]],
      ['arn:aws:wafv2:eu-west-1:123456789012:regional/webacl/portal-acl/2f0e4c1a-9b3d-4e7f-8a6c-5d1b0e9f3a72', [{ WebACL: 'portal-acl' }]],
      ['arn:aws:kms:eu-west-1:123456789012:key/5d1e7c90-3b2a-4f86-a0d4-e91c27b6f843', [{ KeyId: '5d1e7c90-3b2a-4f86-a0d4-e91c27b6f843' }]],
      ['arn:aws:ec2:us-east-1:123456789012:natgateway/nat-0b7e41c9a2d35f086', [{ NatGatewayId: 'nat-0b7e41c9a2d35f086' }]],
      ['arn:aws:route53:::hostedzone/Z0448123ABCDEF', [{ HostedZoneId: 'Z0448123ABCDEF' }]],
      ['arn:aws:elasticache:us-east-1:123456789012:cluster:fare-cache-0001-001', [{ CacheClusterId: 'fare-cache-0001-001' }]],
      ['arn:aws:elasticache:us-east-1:123456789012:replicationgroup:sessions', [{ ReplicationGroupId: 'sessions' }]],
      ['arn:aws:acm:us-east-1:123456789012:certificate/0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b', [{ CertificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b' }]],
      ['arn:aws:events:us-east-1:123456789012:rule/nightly-export', [{ RuleName: 'nightly-export' }]],
      ['arn:aws:events:us-east-1:123456789012:rule/orders-bus/order-placed', [{ EventBusName: 'orders-bus', RuleName: 'order-placed' }]],
      ['arn:aws:sns:us-east-1:123456789012:order-confirmed:0b1c2d3e-4f5a-6b7c-8d9e-0f1a2b3c4d5e', [{ TopicName: 'order-confirmed' }]],
      ['arn:aws:kinesis:us-east-1:123456789012:stream/trip-events', [{ StreamName: 'trip-events' }]],
    ];
    for (const [arn, dimensions] of cases) expect(dimensionsOfArn(arn), arn).toEqual(dimensions);
  });

  it('gives a WAF, KMS or NAT gateway metric to the service its tagged resource belongs to', async () => {
    tagging.on(GetResourcesCommand).resolves({
      ResourceTagMappingList: [
        { ResourceARN: 'arn:aws:wafv2:us-east-1:123456789012:global/webacl/claims-edge-acl/8c3e1f02-7b5d-4a96-b0e4-2d6f9a1c3e57', Tags: [tag('service', 'claims-web-acl')] },
        { ResourceARN: 'arn:aws:kms:eu-west-1:123456789012:key/5d1e7c90-3b2a-4f86-a0d4-e91c27b6f843', Tags: [tag('service', 'webhook-env-key')] },
        { ResourceARN: 'arn:aws:ec2:us-east-1:123456789012:natgateway/nat-0b7e41c9a2d35f086', Tags: [tag('service', 'egress-nat')] },
      ],
    });
    const subject = catalog();
    await expect(subject.serviceOfDimensions({ WebACL: 'claims-edge-acl', Rule: 'AWS-AWSManagedRulesCommonRuleSet' })).resolves.toBe('claims-web-acl');
    await expect(subject.serviceOfDimensions({ KeyId: '5d1e7c90-3b2a-4f86-a0d4-e91c27b6f843' })).resolves.toBe('webhook-env-key');
    await expect(subject.serviceOfDimensions({ NatGatewayId: 'nat-0b7e41c9a2d35f086' })).resolves.toBe('egress-nat');
    await expect(subject.serviceOfDimensions({ NatGatewayId: 'nat-0000000000000000' })).resolves.toBeUndefined();
  });
});

describe('the tagged catalog over the emulated account of every bundled scenario', () => {
  const scenariosIn = (directory: string): Scenario[] =>
    readdirSync(directory)
      .filter((file) => file.endsWith('.json'))
      .sort()
      .map((file) => parseScenarioText(readFileSync(join(directory, file), 'utf8'), file));

  it('finds every service with its kind, maps its metric dimensions, ARN and log groups back to it', async () => {
    tagging.restore();
    ecs.restore();
    for (const scenario of [...scenariosIn(BUNDLED_SCENARIOS_DIR), ...scenariosIn(join(BUNDLED_SCENARIOS_DIR, 'holdout'))]) {
      const recorded = new RecordedEnvironment(scenario.environment, new Date(scenario.now));
      const clients = new AwsClients('us-east-1', { kind: 'emulated', environment: recorded, emulations: scenarioEmulations });
      const subject = taggedCatalog(clients, awsToolSettings.parse({}));
      const services = await subject.services();
      for (const spec of recorded.services) {
        const found = services.find((service) => service.name === spec.name);
        expect(found, `${scenario.id}: ${spec.name}`).toBeDefined();
        const arn = serviceArnOf(recorded, spec);
        if (arn && !spec.arn) expect(found?.kind, `${scenario.id}: ${spec.name} kind`).toBe(spec.kind);
        if (arn) await expect(subject.serviceOfArn(arn), `${scenario.id}: ${arn}`).resolves.toBe(spec.name);
        await expect(subject.serviceOfDimensions(dimensionsOf(recorded, spec.name)), `${scenario.id}: ${spec.name} dimensions`).resolves.toBe(spec.name);
        if (spec.kind === 'ecs' && recorded.has('logs')) expect(found?.logGroups.some((group) => group.startsWith('/ecs/')), `${scenario.id}: ${spec.name} awslogs`).toBe(true);
      }
      const lines = recorded.logs(10 * 365 * 24 * 60);
      for (const line of lines) {
        if (!line.logGroup) continue;
        // A group several services write to (an EventBridge target for ECS events) belongs to one of them; query_logs tells their lines apart.
        const writers = new Set(lines.filter((other) => other.logGroup === line.logGroup).map((other) => other.service));
        await expect(subject.serviceOfLogGroup(line.logGroup), `${scenario.id}: ${line.logGroup}`).resolves.toSatisfy((owner: string) => writers.has(owner));
      }
    }
  });
});
