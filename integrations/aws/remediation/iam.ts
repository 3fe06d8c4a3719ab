import { AwsClients } from '../clients.ts';
import { awsRemediationToolNames, type AwsToolSettings } from '../settings.ts';
import type { RemediationFactory } from './index.ts';

export interface RemediationIamActions {
  /** What the function running the enabled remediation tools calls itself: the reads behind previews and plans. */
  reads: string[];
  /** What the remediation role is granted, and each session narrowed further to one action on one resource. */
  changes: string[];
}

/** Building a tool only declares it: nothing here is called, so no credentials or role are needed. */
const inert = { clients: new AwsClients('us-east-1', { kind: 'live' }), narrowed: async () => Promise.reject(new Error('declaring a tool changes nothing')) };

/** The enabled remediation tools' declared actions, split into the function's reads and the role's changes. */
export const declaredRemediationActions = (factories: Readonly<Record<string, RemediationFactory>>, settings: AwsToolSettings): RemediationIamActions => {
  const enabled = new Set<string>(settings.enabledTools.filter((name) => (awsRemediationToolNames as readonly string[]).includes(name)));
  const chosen = Object.entries(factories).filter(([name]) => enabled.has(name));
  const changes = new Set(chosen.map(([, factory]) => factory.changeAction));
  const reads = new Set(chosen.flatMap(([, factory]) => factory.create(inert).iamActions).filter((action) => !changes.has(action)));
  return { reads: [...reads].sort(), changes: [...changes].sort() };
};
