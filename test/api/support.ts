import { readFileSync } from 'node:fs';
import { DynamoDbTriggerLedger } from '../../lib/store/dynamodb-trigger-ledger.ts';
import { createApp } from '../../lib/api/app.ts';
import type { ApiPorts } from '../../lib/api/ports.ts';
import type { ExecutionInput } from '../../lib/workflow/control.ts';
import type { InvestigationStarter } from '../../lib/triggers/starter.ts';
import { freshStore } from '../support/dynamodb.ts';

export const WEBHOOK_SECRET = 'test-webhook-secret';

/** A starter that starts nothing: it records what it was asked to start and stop. */
export class RecordingStarter implements InvestigationStarter {
  readonly started: { investigationId: string; input: ExecutionInput }[] = [];
  readonly stopped: string[] = [];
  async start(investigationId: string, input: ExecutionInput): Promise<void> {
    this.started.push({ investigationId, input });
  }
  async stop(investigationId: string): Promise<void> {
    this.stopped.push(investigationId);
  }
}

export const apiOnFreshTable = async (settings: Partial<ApiPorts['settings']> = {}, clock?: () => Date) => {
  const { client, tableName, store } = await freshStore();
  const ledger = new DynamoDbTriggerLedger({ client, tableName });
  const starter = new RecordingStarter();
  const ports: ApiPorts = {
    store,
    ledger,
    starter,
    secrets: { pagerDutyWebhookSecret: async () => WEBHOOK_SECRET },
    settings: { groupWindowMs: 30 * 60_000, maxRunning: 10, ...settings },
    ...(clock ? { clock } : {}),
  };
  return { app: createApp(ports), ports, store, ledger, starter, client, tableName };
};

const scenarioTrigger = (id: string): Record<string, unknown> =>
  (JSON.parse(readFileSync(new URL(`../../scenarios/${id}.json`, import.meta.url), 'utf8')) as { trigger: Record<string, unknown> }).trigger;

/** Real sample events, as AWS and PagerDuty deliver them, taken from the bundled scenarios. */
export const samples = {
  singleMetricAlarm: () => scenarioTrigger('bad-deploy-cascade').cloudwatchAlarm as Record<string, any>,
  metricMathAlarm: () => scenarioTrigger('promo-campaign-lambda-throttles').cloudwatchAlarm as Record<string, any>,
  compositeAlarm: () => scenarioTrigger('cart-db-az-impairment').cloudwatchAlarm as Record<string, any>,
  incidentTriggered: () => scenarioTrigger('payment-gateway-outage').pagerduty as Record<string, any>,
};
