import { getDependenciesContract } from '../../../lib/tools/contracts/get-dependencies.ts';
import { noData } from '../../../lib/tools/contracts/shared-inputs.ts';
import { parseArn } from '../../aws/catalog/arn-resources.ts';
import { implementTool } from '../../../lib/tools/tool.ts';
import type { RecordedEnvironment } from '../recorded-environment.ts';

export const getDependencies = (environment: RecordedEnvironment) =>
  implementTool(getDependenciesContract, {
    sideEffect: 'read-only',
    iamActions: ['xray:GetServiceGraph', 'servicediscovery:ListServices', 'tag:GetResources'],
    run: async (input) => {
      if (!environment.has('services')) return noData('no service map is available');
      const services = environment.services.map((service) => ({
        name: service.name,
        kind: service.kind,
        arn: service.arn,
        awsService: service.arn ? parseArn(service.arn)?.service : undefined,
        tags: service.tags,
        dependsOn: service.dependsOn ?? [],
        calledBy: environment.services.filter((caller) => (caller.dependsOn ?? []).includes(service.name)).map((caller) => caller.name),
      }));
      if (input.service === undefined) return { summary: `${services.length} services`, data: { available: true, services } };
      const wanted = input.service.toLowerCase();
      const start = services.find((service) => service.name.toLowerCase() === wanted);
      if (!start) {
        return { summary: `no service named ${input.service}`, data: { available: true, services: [], known: services.map((service) => service.name) } };
      }
      const connected = new Set<string>([start.name]);
      const queue = [start.name];
      while (queue.length > 0) {
        const name = queue.shift();
        const current = services.find((service) => service.name === name);
        for (const neighbour of [...(current?.dependsOn ?? []), ...(current?.calledBy ?? [])]) {
          if (!connected.has(neighbour)) {
            connected.add(neighbour);
            queue.push(neighbour);
          }
        }
      }
      const subgraph = services.filter((service) => connected.has(service.name));
      return { summary: `${subgraph.length} services connected to ${start.name}`, data: { available: true, services: subgraph } };
    },
  });
