import { analyzeIncident } from '../../lib/analyst/analyze-incident-tool.ts';
import type { ToolDefinition } from '../../lib/tools/tool.ts';
import type { ServiceCatalog } from './catalog.ts';
import { catalogIamActions } from './catalog/tagged-catalog.ts';
import { AwsClients } from './clients.ts';
import type { AwsToolSettings } from './settings.ts';
import type { AwsToolFactory } from './tools.ts';

/** Building a tool only declares it: nothing here is ever called, so no catalog or credentials are needed. */
const inertCatalog: ServiceCatalog = {
  services: async () => [],
  serviceOfArn: async () => undefined,
  serviceOfDimensions: async () => undefined,
  serviceOfLogGroup: async () => undefined,
};

/**
 * The exact IAM actions the enabled tools declare, plus the service catalog's (every tool maps
 * services to resources through it): what the tool-running function is granted, and nothing else.
 */
export const declaredIamActions = (factories: Readonly<Record<string, AwsToolFactory>>, settings: AwsToolSettings): string[] => {
  const enabled = new Set<string>(settings.enabledTools);
  const clients = new AwsClients('us-east-1', { kind: 'live' });
  const tools: ToolDefinition[] = Object.entries(factories)
    .filter(([name]) => enabled.has(name))
    .map(([, factory]) => factory({ clients, catalog: inertCatalog, settings, paced: true }));
  const withAnalysis = enabled.has('analyze_incident') ? [...tools, analyzeIncident(tools) as ToolDefinition] : tools;
  const actions = withAnalysis.flatMap((tool) => tool.iamActions);
  return [...new Set(tools.length > 0 ? [...actions, ...catalogIamActions] : actions)].sort();
};
