import type { GetServiceGraphCommandInput, GetServiceGraphCommandOutput, Service as GraphNode } from '@aws-sdk/client-xray';
import type { RecordedEnvironment } from '../../scenario/recorded-environment.ts';
import { serviceException, type ServiceEmulation } from './emulator.ts';
import { emulatedAccount } from './service-identity.ts';

/** Small pages, so the tool's pagination really runs. */
const NODES_PER_PAGE = 3;

/** The X-Ray node type of a scenario kind; a kind with no AWS type keeps its own name, an external service is `remote`. */
const nodeTypes: Readonly<Record<string, string>> = {
  lambda: 'AWS::Lambda::Function',
  ecs: 'AWS::ECS::Container',
  eks: 'AWS::EKS::Container',
  ec2: 'AWS::EC2::Instance',
  rds: 'AWS::RDS::DBInstance',
  dynamodb: 'AWS::DynamoDB::Table',
  sqs: 'AWS::SQS::Queue',
  sns: 'AWS::SNS::Topic',
  apigateway: 'AWS::ApiGateway::Stage',
  elb: 'AWS::ElasticLoadBalancingV2::LoadBalancer',
  s3: 'AWS::S3::Bucket',
  cloudfront: 'AWS::CloudFront::Distribution',
  external: 'remote',
};

/**
 * X-Ray's service graph from the scenario's service map: one node per service (reference ids in
 * the order of the scenario), with an edge to each service it depends on.
 */
const getServiceGraph = (input: GetServiceGraphCommandInput, environment: RecordedEnvironment): Omit<GetServiceGraphCommandOutput, '$metadata'> => {
  const { StartTime, EndTime } = input;
  if (!StartTime || !EndTime || EndTime.getTime() <= StartTime.getTime()) throw serviceException('InvalidRequestException', 'EndTime must be after StartTime');
  const services = environment.services;
  const referenceOf = new Map(services.map((service, index) => [service.name, index]));
  const nodes: GraphNode[] = services.map((service, index) => ({
    ReferenceId: index,
    Name: service.name,
    Names: [service.name],
    AccountId: emulatedAccount(environment),
    ...(service.kind ? { Type: nodeTypes[service.kind] ?? service.kind } : {}),
    State: 'active',
    StartTime,
    EndTime,
    Root: !services.some((caller) => (caller.dependsOn ?? []).includes(service.name)),
    Edges: (service.dependsOn ?? [])
      .filter((callee) => referenceOf.has(callee))
      .map((callee) => ({ ReferenceId: referenceOf.get(callee), StartTime, EndTime })),
  }));
  const start = input.NextToken ? Number(input.NextToken) : 0;
  if (!Number.isInteger(start) || start < 0 || start > nodes.length) throw serviceException('InvalidRequestException', `invalid NextToken ${input.NextToken}`);
  const end = start + NODES_PER_PAGE;
  return { StartTime, EndTime, Services: nodes.slice(start, end), ContainsOldGroupVersions: false, ...(end < nodes.length ? { NextToken: String(end) } : {}) };
};

export const xrayGraphEmulation: ServiceEmulation = { GetServiceGraphCommand: getServiceGraph };
