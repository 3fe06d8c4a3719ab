import type { AwsClients } from '../clients.ts';
import type { NarrowedClients } from './narrowed-clients.ts';

/** What a remediation tool needs: clients to read the value it will change, and narrowed clients to change it. */
export interface RemediationDependencies {
  /** The investigation's read clients: previews and previous values. */
  clients: AwsClients;
  narrowed: NarrowedClients;
  /** The investigated account, for ARNs an API does not return. */
  accountId?: string;
}
