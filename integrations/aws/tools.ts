import type { ToolDefinition } from '../../lib/tools/tool.ts';
import type { ServiceCatalog } from './catalog.ts';
import type { AwsClients } from './clients.ts';
import type { AwsToolSettings } from './settings.ts';

/** What every AWS tool is built from. */
export interface AwsToolDependencies {
  clients: AwsClients;
  catalog: ServiceCatalog;
  settings: AwsToolSettings;
  /** The account being investigated (the trigger's). */
  accountId?: string;
}

export type AwsToolFactory = (dependencies: AwsToolDependencies) => ToolDefinition;
