import type { InvestigationStore } from '../../lib/store/port.ts';
import { taggedCatalog } from './catalog/tagged-catalog.ts';
import { declaredIamActions } from './iam.ts';
import type { AwsToolSettings } from './settings.ts';
import { AwsToolSource } from './source.ts';
import type { AwsToolFactory } from './tools.ts';

/** Every AWS tool, by contract name. */
export const awsToolFactories: Readonly<Record<string, AwsToolFactory>> = {};

export const awsToolSource = (options: { store: InvestigationStore; settings: AwsToolSettings; home: { accountId?: string; region: string } }): AwsToolSource =>
  new AwsToolSource({ ...options, factories: awsToolFactories, catalog: taggedCatalog });

/** The IAM actions the enabled AWS tools need: the tool-running function's grant. */
export const awsToolIamActions = (settings: AwsToolSettings): string[] => declaredIamActions(awsToolFactories, settings);
