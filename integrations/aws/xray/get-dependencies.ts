import { GetServiceGraphCommand, XRayClient, type Service as GraphNode } from '@aws-sdk/client-xray';
import { getDependenciesContract, type ServiceNode } from '../../../lib/tools/contracts/get-dependencies.ts';
import { noData } from '../../../lib/tools/contracts/shared-inputs.ts';
import { implementTool } from '../../../lib/tools/tool.ts';
import { deniedReason, isAccessDenied } from '../api-errors.ts';
import type { ServiceResources } from '../catalog.ts';
import { kindOfArn, parseArn } from '../catalog/arn-resources.ts';
import { catalogIamActions } from '../catalog/tagged-catalog.ts';
import type { AwsToolDependencies } from '../tools.ts';

/** GetServiceGraph covers at most six hours. */
const GRAPH_WINDOW_MS = 6 * 60 * 60_000;
/** The tag a team can set on a resource when X-Ray does not trace it: the services it calls, comma- or space-separated. */
export const DEPENDS_ON_TAG = 'depends-on';

/** X-Ray node types -> the kinds the tools speak. */
const kindsByNodeType: Readonly<Record<string, string>> = {
  'AWS::Lambda': 'lambda',
  'AWS::Lambda::Function': 'lambda',
  'AWS::ECS::Container': 'ecs',
  'AWS::ECS::Service': 'ecs',
  'AWS::EKS::Container': 'eks',
  'AWS::EC2::Instance': 'ec2',
  'AWS::ElasticBeanstalk::Environment': 'ec2',
  'AWS::RDS::DBInstance': 'rds',
  'Database::SQL': 'rds',
  'AWS::DynamoDB::Table': 'dynamodb',
  'AWS::DynamoDB': 'dynamodb',
  'AWS::SQS::Queue': 'sqs',
  'AWS::SQS': 'sqs',
  'AWS::SNS::Topic': 'sns',
  'AWS::SNS': 'sns',
  'AWS::ApiGateway::Stage': 'apigateway',
  'AWS::ElasticLoadBalancingV2::LoadBalancer': 'elb',
  'AWS::S3::Bucket': 's3',
  'AWS::S3': 's3',
  'AWS::CloudFront::Distribution': 'cloudfront',
  remote: 'external',
};

const kindOfNodeType = (type: string | undefined): string | undefined => (type === undefined ? undefined : (kindsByNodeType[type] ?? type.toLowerCase()));

/** The ARN that is the service itself rather than its plumbing (not a log group). */
const primaryArn = (service: ServiceResources | undefined): string | undefined => service?.arns.find((arn) => !['logs', 'cloudwatch'].includes(kindOfArn(arn)));

interface Edges {
  kind?: string;
  dependsOn: Set<string>;
}

/**
 * get_dependencies from X-Ray's service graph over the look-back window, each node named as the
 * catalog names it; without a graph (X-Ray not enabled, nothing traced, or access denied), from the
 * catalog's `depends-on` tags.
 */
export const getDependencies = ({ clients, catalog, settings }: AwsToolDependencies) =>
  implementTool(getDependenciesContract, {
    sideEffect: 'read-only',
    iamActions: ['xray:GetServiceGraph', ...catalogIamActions],
    run: async (input, context) => {
      const services = await catalog.services();
      const byName = new Map(services.map((service) => [service.name.toLowerCase(), service]));
      const nameOf = (xrayName: string) => byName.get(xrayName.toLowerCase())?.name ?? xrayName;

      let graph: Map<string, Edges>;
      let source: string;
      let denied: string | undefined;
      try {
        graph = await serviceGraph(clients.get(XRayClient), context.now, Math.min(settings.lookbackMinutes * 60_000, GRAPH_WINDOW_MS), nameOf);
        source = 'X-Ray';
      } catch (error) {
        if (!isAccessDenied(error)) throw error;
        denied = deniedReason('xray:GetServiceGraph', error);
        graph = new Map();
        source = 'tags';
      }
      if (graph.size === 0) {
        graph = taggedGraph(services, nameOf);
        source = 'tags';
      }
      if (graph.size === 0) return noData('no service map: X-Ray has no graph for the window and no service is tagged', denied);

      const nodes: ServiceNode[] = [...graph.entries()]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([name, edges]) => {
          const resources = byName.get(name.toLowerCase());
          const kind = edges.kind ?? resources?.kind;
          const arn = primaryArn(resources);
          const awsService = arn ? parseArn(arn)?.service : undefined;
          return {
            name,
            ...(kind ? { kind } : {}),
            ...(arn ? { arn } : {}),
            ...(awsService ? { awsService } : {}),
            ...(resources && Object.keys(resources.tags).length > 0 ? { tags: resources.tags } : {}),
            dependsOn: [...edges.dependsOn].sort(),
            calledBy: [...graph.entries()].filter(([, caller]) => caller.dependsOn.has(name)).map(([caller]) => caller).sort(),
          };
        });
      const note = denied ? ` (${denied})` : '';
      if (input.service === undefined) return { summary: `${nodes.length} services, from ${source}${note}`, data: { available: true, services: nodes } };
      const start = nodes.find((node) => node.name.toLowerCase() === input.service?.trim().toLowerCase());
      if (!start) return { summary: `no service named ${input.service}`, data: { available: true, services: [], known: nodes.map((node) => node.name) } };
      const connected = new Set([start.name]);
      const queue = [start];
      for (let node = queue.shift(); node; node = queue.shift()) {
        for (const neighbour of [...node.dependsOn, ...node.calledBy]) {
          if (connected.has(neighbour)) continue;
          connected.add(neighbour);
          const next = nodes.find((candidate) => candidate.name === neighbour);
          if (next) queue.push(next);
        }
      }
      const subgraph = nodes.filter((node) => connected.has(node.name));
      return { summary: `${subgraph.length} services connected to ${start.name}, from ${source}${note}`, data: { available: true, services: subgraph } };
    },
  });

/** Every page of the service graph, as service -> the services it calls. Client nodes (the callers outside) are left out. */
const serviceGraph = async (xray: XRayClient, now: Date, windowMs: number, nameOf: (xrayName: string) => string): Promise<Map<string, Edges>> => {
  const nodes: GraphNode[] = [];
  let token: string | undefined;
  do {
    const page = await xray.send(new GetServiceGraphCommand({ StartTime: new Date(now.getTime() - windowMs), EndTime: now, ...(token ? { NextToken: token } : {}) }));
    nodes.push(...(page.Services ?? []));
    token = page.NextToken;
  } while (token);
  const byReference = new Map(nodes.filter((node) => node.ReferenceId !== undefined).map((node) => [node.ReferenceId, node]));
  const graph = new Map<string, Edges>();
  for (const node of nodes) {
    if (!node.Name || node.Type === 'client') continue;
    const name = nameOf(node.Name);
    const entry = graph.get(name) ?? { dependsOn: new Set<string>() };
    entry.kind ??= kindOfNodeType(node.Type);
    for (const edge of node.Edges ?? []) {
      const target = byReference.get(edge.ReferenceId);
      if (target?.Name && target.Type !== 'client') entry.dependsOn.add(nameOf(target.Name));
    }
    graph.set(name, entry);
  }
  return graph;
};

/** The catalog's services with the callees their `depends-on` tag names; empty when no service has the tag. */
const taggedGraph = (services: readonly ServiceResources[], nameOf: (name: string) => string): Map<string, Edges> => {
  if (!services.some((service) => service.tags[DEPENDS_ON_TAG])) return new Map();
  return new Map(
    services.map((service) => [
      service.name,
      { dependsOn: new Set((service.tags[DEPENDS_ON_TAG] ?? '').split(/[\s,]+/).filter(Boolean).map(nameOf)) } as Edges,
    ]),
  );
};
