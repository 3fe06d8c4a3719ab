/**
 * What an ARN says about the resource it names: its kind (in the scenario vocabulary of
 * lib/domain/vocabulary.ts where one fits), the CloudWatch metric dimensions that identify it, and
 * the log group it writes to by naming convention.
 */
export interface ArnParts {
  service: string;
  region: string;
  account: string;
  /** Everything after the account: `function:name`, `service/cluster/name`, `table/name`... */
  resource: string;
}

export const parseArn = (arn: string): ArnParts | undefined => {
  const match = /^arn:[\w-]+:([\w-]+):([\w-]*):(\d*):(.+)$/.exec(arn);
  if (!match) return undefined;
  const [, service = '', region = '', account = '', resource = ''] = match;
  return { service, region, account, resource };
};

/** The AWS service prefix in an ARN -> the kind the tools and the scenarios speak. */
const kindsByArnService: Readonly<Record<string, string>> = {
  lambda: 'lambda',
  ecs: 'ecs',
  eks: 'eks',
  ec2: 'ec2',
  autoscaling: 'ec2',
  rds: 'rds',
  dynamodb: 'dynamodb',
  sqs: 'sqs',
  sns: 'sns',
  apigateway: 'apigateway',
  execute_api: 'apigateway',
  elasticloadbalancing: 'elb',
  cloudfront: 'cloudfront',
  s3: 's3',
  logs: 'logs',
};

export const kindOfArn = (arn: string): string => {
  const parts = parseArn(arn);
  if (!parts) return 'other';
  return kindsByArnService[parts.service.replace('-', '_')] ?? parts.service;
};

/** Kinds that are a service's body rather than its plumbing: a service tagged on a Lambda and a log group is a lambda. */
const primaryKinds = ['lambda', 'ecs', 'eks', 'ec2', 'rds', 'dynamodb', 'sqs', 'sns', 'apigateway', 'elb', 'cloudfront', 's3'];

/** Resources that watch or record a service without being it: its log groups and its alarms. */
const plumbingKinds = new Set(['logs', 'cloudwatch']);

/** The kind that best describes a service made of these resources. */
export const primaryKind = (arns: readonly string[]): string | undefined => {
  const kinds = arns.map(kindOfArn);
  return primaryKinds.find((kind) => kinds.includes(kind)) ?? kinds.find((kind) => !plumbingKinds.has(kind));
};

/** The resource's own name: the last path segment, without a Lambda alias or version. */
const lastSegment = (resource: string): string => resource.split(/[/:]/).filter(Boolean).at(-1) ?? resource;

/** The metric dimensions CloudWatch publishes this resource's metrics under. */
export const dimensionsOfArn = (arn: string): Record<string, string>[] => {
  const parts = parseArn(arn);
  if (!parts) return [];
  const { service, resource } = parts;
  switch (service) {
    case 'lambda': {
      const [, name] = resource.split(':');
      return name ? [{ FunctionName: name }] : [];
    }
    case 'ecs': {
      const [type, cluster, name] = resource.split('/');
      return type === 'service' && cluster && name ? [{ ClusterName: cluster, ServiceName: name }] : [];
    }
    case 'rds': {
      const [type, name] = resource.split(':');
      if (!name) return [];
      return type === 'cluster' ? [{ DBClusterIdentifier: name }] : [{ DBInstanceIdentifier: name }];
    }
    case 'dynamodb':
      return resource.startsWith('table/') ? [{ TableName: resource.split('/')[1] ?? '' }] : [];
    case 'sqs':
      return [{ QueueName: resource }];
    case 'sns':
      // A subscription (`topic:subscription-id`) is measured under its topic.
      return [{ TopicName: resource.split(':')[0] ?? resource }];
    case 'apigateway': {
      const id = /\/(?:restapis|apis)\/([^/]+)/.exec(resource)?.[1];
      return id ? [{ ApiId: id }, { ApiName: id }] : [];
    }
    case 'elasticloadbalancing': {
      // app/name/id for the load balancer, targetgroup/name/id for a target group: the dimension value is the ARN's tail.
      if (resource.startsWith('loadbalancer/')) return [{ LoadBalancer: resource.slice('loadbalancer/'.length) }];
      if (resource.startsWith('targetgroup/')) return [{ TargetGroup: resource }];
      return [];
    }
    case 'cloudfront':
      return resource.startsWith('distribution/') ? [{ DistributionId: lastSegment(resource) }] : [];
    case 's3':
      return [{ BucketName: resource }];
    case 'ec2':
      if (resource.startsWith('instance/')) return [{ InstanceId: lastSegment(resource) }];
      if (resource.startsWith('natgateway/')) return [{ NatGatewayId: lastSegment(resource) }];
      if (resource.startsWith('transit-gateway/')) return [{ TransitGateway: lastSegment(resource) }];
      return resource.startsWith('volume/') ? [{ VolumeId: lastSegment(resource) }] : [];
    case 'wafv2': {
      // `global/webacl/<name>/<id>` or `regional/webacl/<name>/<id>`: WAF publishes by the ACL's name.
      const name = /^(?:global|regional)\/webacl\/([^/]+)\//.exec(resource)?.[1];
      return name ? [{ WebACL: name }] : [];
    }
    case 'kms':
      return resource.startsWith('key/') ? [{ KeyId: lastSegment(resource) }] : [];
    case 'route53':
      if (resource.startsWith('hostedzone/')) return [{ HostedZoneId: lastSegment(resource) }];
      return resource.startsWith('healthcheck/') ? [{ HealthCheckId: lastSegment(resource) }] : [];
    case 'acm':
      return resource.startsWith('certificate/') ? [{ CertificateArn: arn }] : [];
    case 'events': {
      // `rule/<name>` on the default bus, `rule/<bus>/<name>` on another.
      if (!resource.startsWith('rule/')) return [];
      const [, first, second] = resource.split('/');
      return second ? [{ EventBusName: first ?? '', RuleName: second }] : [{ RuleName: first ?? '' }];
    }
    case 'kinesis':
      return resource.startsWith('stream/') ? [{ StreamName: lastSegment(resource) }] : [];
    case 'firehose':
      return resource.startsWith('deliverystream/') ? [{ DeliveryStreamName: lastSegment(resource) }] : [];
    case 'states':
      return resource.startsWith('stateMachine:') ? [{ StateMachineArn: arn }] : [];
    case 'kafka': {
      const name = /^cluster\/([^/]+)\//.exec(resource)?.[1];
      return name ? [{ 'Cluster Name': name }] : [];
    }
    case 'es':
      return resource.startsWith('domain/') ? [{ DomainName: lastSegment(resource) }] : [];
    case 'synthetics':
      return resource.startsWith('canary:') ? [{ CanaryName: lastSegment(resource) }] : [];
    case 'autoscaling': {
      const name = /autoScalingGroupName\/(.+)$/.exec(resource)?.[1];
      return name ? [{ AutoScalingGroupName: name }] : [];
    }
    case 'elasticache': {
      // `cluster:<id>` is one node group's cache cluster, `replicationgroup:<id>` the whole group.
      const [type, id] = resource.split(':');
      if (!id) return [];
      if (type === 'cluster') return [{ CacheClusterId: id }];
      return type === 'replicationgroup' ? [{ ReplicationGroupId: id }] : [];
    }
    default:
      return [];
  }
};

/** The log group this resource writes to by convention, or the log group the ARN itself names. */
export const conventionalLogGroup = (arn: string): string | undefined => {
  const parts = parseArn(arn);
  if (!parts) return undefined;
  if (parts.service === 'logs') return /^log-group:(.+?)(?::\*)?$/.exec(parts.resource)?.[1];
  if (parts.service === 'lambda') {
    const name = parts.resource.split(':')[1];
    return name ? `/aws/lambda/${name}` : undefined;
  }
  return undefined;
};
