import type { InvestigationStore } from '../../lib/store/port.ts';
import { catalogIamActions, taggedCatalog } from './catalog/tagged-catalog.ts';
import type { AwsToolSettings } from './settings.ts';
import { AwsToolSource } from './source.ts';
import type { AwsToolFactory } from './tools.ts';

/** Every AWS tool, by contract name. */
export const awsToolFactories: Readonly<Record<string, AwsToolFactory>> = {};

export const awsToolSource = (options: { store: InvestigationStore; settings: AwsToolSettings; home: { accountId?: string; region: string } }): AwsToolSource =>
  new AwsToolSource({ ...options, factories: awsToolFactories, catalog: taggedCatalog });

export { catalogIamActions };
