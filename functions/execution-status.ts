import { MetricUnit, Metrics } from '@aws-lambda-powertools/metrics';
import { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import { EventBridgeLifecyclePublisher } from '../lib/notify/eventbridge-lifecycle-publisher.ts';
import { investigationEnded } from '../lib/triggers/admit.ts';
import { executionStatusChange, lifecycleTypeOf } from '../lib/triggers/lifecycle.ts';
import { apiPortsFromEnvironment, logger } from './api-ports.ts';

export const METRICS_NAMESPACE = 'SreAgent';
const metrics = new Metrics({ namespace: METRICS_NAMESPACE, serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'sre-agent' });
const publisher = new EventBridgeLifecyclePublisher(new EventBridgeClient({}), process.env.LIFECYCLE_BUS_NAME ?? 'default');

/**
 * Step Functions status changes of investigation executions: the ended one's running slot goes
 * to the next queued investigation, the lifecycle event goes to the bus, and the agent's own
 * health goes to CloudWatch as EMF metrics.
 */
export const handler = async (event: unknown): Promise<void> => {
  const change = executionStatusChange.parse(event);
  const { name: investigationId, status, startDate, stopDate } = change.detail;
  const type = lifecycleTypeOf(status);
  if (type === undefined) return;
  const ports = apiPortsFromEnvironment();
  if (type !== 'investigation.started') await investigationEnded(ports, investigationId);
  const head = await ports.store.get(investigationId);
  await publisher.publish({
    type,
    investigationId,
    detail: {
      status: head?.status ?? status.toLowerCase(),
      ...(head?.service ? { service: head.service } : {}),
      ...(head?.triggerSummary ? { trigger: head.triggerSummary } : {}),
      ...(head?.finding ? { incident: head.finding.incident, rootCause: head.finding.rootCause } : {}),
      ...(head ? { usage: head.usage } : {}),
    },
  });
  if (type === 'investigation.started') metrics.addMetric('InvestigationsStarted', MetricUnit.Count, 1);
  else {
    metrics.addMetric(type === 'investigation.completed' ? 'InvestigationsSucceeded' : type === 'investigation.failed' ? 'InvestigationsFailed' : 'InvestigationsCancelled', MetricUnit.Count, 1);
    if (startDate && stopDate) metrics.addMetric('InvestigationDuration', MetricUnit.Milliseconds, stopDate - startDate);
    if (head) {
      metrics.addMetric('InvestigationTokens', MetricUnit.Count, head.usage.inputTokens + head.usage.outputTokens);
      metrics.addMetric('InvestigationCostUsd', MetricUnit.NoUnit, head.usage.costUsd);
    }
  }
  metrics.publishStoredMetrics();
  logger.info('execution status', { investigationId, status, type });
};
