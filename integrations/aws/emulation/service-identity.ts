import type { serviceSpec } from '../../../lib/domain/scenario.ts';
import type { z } from 'zod';
import type { RecordedEnvironment } from '../../scenario/recorded-environment.ts';
import { dimensionsOfArn } from '../catalog/arn-resources.ts';

/**
 * Where a scenario leaves out an identifier an AWS API always returns (a region, an account, an
 * ARN, a metric's dimensions), the emulation derives it the same way everywhere, so every emulated
 * API names a service's resources alike and the catalog maps them back to the service.
 */
type ServiceSpec = z.infer<typeof serviceSpec>;

const ARN = /^arn:[\w-]+:[\w-]+:([\w-]*):(\d*):/;

const fromArns = (environment: RecordedEnvironment, part: 1 | 2): string | undefined =>
  environment.services.map((service) => ARN.exec(service.arn ?? '')?.[part]).find((value) => value !== undefined && value !== '');

export const emulatedRegion = (environment: RecordedEnvironment): string => environment.region ?? fromArns(environment, 1) ?? 'us-east-1';

export const emulatedAccount = (environment: RecordedEnvironment): string => environment.accountId ?? fromArns(environment, 2) ?? '123456789012';

/** The ECS cluster the scenario's other ECS services run in, else `default`. */
const emulatedCluster = (environment: RecordedEnvironment): string =>
  environment.services.map((service) => /:service\/([^/]+)\/[^/]+$/.exec(service.arn ?? '')?.[1]).find((cluster) => cluster !== undefined) ?? 'default';

/** Everything recorded up to the incident's clock. */
const ALL_HISTORY_MINUTES = 10 * 365 * 24 * 60;

const apiNames = new WeakMap<RecordedEnvironment, Map<string, string>>();

/**
 * The REST API a service of kind apigateway is, by the `ApiName` its recorded metrics carry, else
 * its own name. The emulated account gives a REST API its name as its id, so the catalog reads the
 * `ApiName` CloudWatch publishes under straight from the ARN.
 */
const restApiOf = (environment: RecordedEnvironment, serviceName: string): string => {
  let names = apiNames.get(environment);
  if (!names) {
    names = new Map();
    for (const metric of environment.has('metrics') ? environment.metrics(ALL_HISTORY_MINUTES) : []) {
      const apiName = metric.dimensions?.ApiName;
      if (apiName && !names.has(metric.service)) names.set(metric.service, apiName);
    }
    apiNames.set(environment, names);
  }
  return names.get(serviceName) ?? serviceName;
};

/** The service's own ARN, or the ARN its kind's resource would have. */
export const serviceArnOf = (environment: RecordedEnvironment, service: ServiceSpec): string | undefined => {
  if (service.arn) return service.arn;
  const region = emulatedRegion(environment);
  const account = emulatedAccount(environment);
  const { name } = service;
  switch (service.kind) {
    case 'lambda':
      return `arn:aws:lambda:${region}:${account}:function:${name}`;
    case 'ecs':
      return `arn:aws:ecs:${region}:${account}:service/${emulatedCluster(environment)}/${name}`;
    case 'rds':
      return `arn:aws:rds:${region}:${account}:db:${name}`;
    case 'dynamodb':
      return `arn:aws:dynamodb:${region}:${account}:table/${name}`;
    case 'sqs':
      return `arn:aws:sqs:${region}:${account}:${name}`;
    case 'sns':
      return `arn:aws:sns:${region}:${account}:${name}`;
    case 'apigateway':
      return `arn:aws:apigateway:${region}::/restapis/${restApiOf(environment, name)}`;
    case 's3':
      return `arn:aws:s3:::${name}`;
    default:
      return undefined;
  }
};

export const serviceNamed = (environment: RecordedEnvironment, name: string): ServiceSpec | undefined =>
  environment.services.find((service) => service.name === name);

/** The resource name at the end of an ARN (`service/cluster/name` -> `name`, `function:name` -> `name`). */
export const resourceNameOf = (arn: string): string => arn.split(/[/:]/).filter(Boolean).at(-1) ?? arn;

/**
 * The service that owns an ARN or resource name the tools sent: by its ARN, else by its name, else by
 * its resource's own name (a function `billing-interval-export` filed as the service `billing-export`).
 */
export const serviceOfIdentifier = (environment: RecordedEnvironment, identifier: string): ServiceSpec | undefined => {
  const name = identifier.startsWith('arn:') ? resourceNameOf(identifier) : identifier;
  const arnOf = (service: ServiceSpec) => serviceArnOf(environment, service);
  return (
    environment.services.find((service) => arnOf(service) === identifier || service.name === name) ??
    environment.services.find((service) => {
      const arn = arnOf(service);
      return arn !== undefined && resourceNameOf(arn) === name;
    })
  );
};

const namespacesByKind: Readonly<Record<string, string>> = {
  lambda: 'AWS/Lambda',
  ecs: 'AWS/ECS',
  rds: 'AWS/RDS',
  dynamodb: 'AWS/DynamoDB',
  sqs: 'AWS/SQS',
  sns: 'AWS/SNS',
  apigateway: 'AWS/ApiGateway',
  elb: 'AWS/ApplicationELB',
  s3: 'AWS/S3',
  cloudfront: 'AWS/CloudFront',
  ec2: 'AWS/EC2',
};

/** The namespace a service's metric is published in when the scenario does not say. */
export const namespaceOf = (environment: RecordedEnvironment, serviceName: string): string =>
  namespacesByKind[serviceNamed(environment, serviceName)?.kind ?? ''] ?? `Custom/${serviceName}`;

/** The dimensions a service's metric is published under when the scenario does not say: its resource's, else `Service`. */
export const dimensionsOf = (environment: RecordedEnvironment, serviceName: string): Record<string, string> => {
  const service = serviceNamed(environment, serviceName);
  const arn = service ? serviceArnOf(environment, service) : undefined;
  return (arn ? dimensionsOfArn(arn)[0] : undefined) ?? { Service: serviceName };
};
