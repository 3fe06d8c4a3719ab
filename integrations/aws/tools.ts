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
  /**
   * Whether calls are paced for a real account's rate limits (Insights polling, CloudTrail's 2
   * requests a second); default true. An emulated account has none, so its polls and spacing do not wait.
   */
  paced?: boolean;
}

export type AwsToolFactory = (dependencies: AwsToolDependencies) => ToolDefinition;
