import type { InvestigationStore } from '../store/port.ts';
import type { ApprovalPorts } from './approvals-routes.ts';
import type { SlackInteractionPorts } from './slack-interactions-route.ts';
import type { AdmissionPorts } from '../triggers/admit.ts';

/** Secrets the API reads when a request needs them (Secrets Manager on AWS, the environment locally). */
export interface SecretReader {
  /** The PagerDuty V3 webhook subscription's signing secret; undefined when none is configured. */
  pagerDutyWebhookSecret(): Promise<string | undefined>;
}

/** Everything the HTTP app needs from the outside world; AWS and `serve` pass different adapters. */
export interface ApiPorts extends AdmissionPorts {
  store: InvestigationStore;
  secrets: SecretReader;
  /** The approval routes; without them there are no `/approvals` routes (nothing can be approved). */
  approvalRoutes?: ApprovalPorts;
  /** The approval notice's Slack buttons (`POST /webhooks/slack`); without them the route does not exist. */
  slackInteractions?: SlackInteractionPorts;
}
