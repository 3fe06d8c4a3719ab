import { describe, expect, it } from 'vitest';
import { isEventCount, meaningOf, type MetricMeaning } from '../../lib/analyst/metric-semantics.ts';

/**
 * Real CloudWatch metric names and how they read: whether a rise or a fall is bad or demand, and
 * whether CloudWatch publishes the metric only while its events happen. The failure words are
 * written once for both readings; this table pins what each matched when they were written twice.
 */
const readings: readonly [name: string, meaning: MetricMeaning, eventCount: boolean][] = [
  ['Errors', 'bad-up', true],
  ['Throttles', 'bad-up', true],
  ['TargetErrorCount', 'bad-up', true],
  ['HTTPCode_Target_5XX_Count', 'bad-up', true],
  ['HTTPCode_ELB_4XX_Count', 'bad-up', true],
  ['HTTPCode_ELB_504_Count', 'bad-up', true],
  ['HTTPCode_Target_2XX_Count', 'demand', true],
  ['ThrottledRequests', 'bad-up', true],
  ['ConditionalCheckFailedRequests', 'bad-up', true],
  ['ErrorPortAllocation', 'bad-up', true],
  ['PacketsDropCount', 'bad-up', true],
  ['RejectedConnectionCount', 'bad-up', true],
  ['DeadLetterErrors', 'bad-up', true],
  ['Deadlocks', 'bad-up', true],
  ['NumberOfNotificationsFailed', 'bad-up', true],
  ['UnHealthyHostCount', 'bad-up', true],
  // Lost work, but not among the event counts.
  ['NumberOfNotificationsFilteredOut', 'bad-up', false],
  ['NumberOfMessagesSent', 'demand', false],
  ['Invocations', 'demand', false],
  ['ConsumedReadCapacityUnits', 'demand', false],
  ['RequestCount', 'demand', true],
  ['ActiveConnectionCount', 'demand', true],
  ['HealthyHostCount', 'bad-down', true],
  ['FreeStorageSpace', 'bad-down', false],
  ['CPUUtilization', 'bad-up', false],
  ['DatabaseConnections', 'bad-up', false],
  ['ConcurrentExecutions', 'bad-up', false],
  ['Duration', 'bad-up', false],
  ['ApproximateAgeOfOldestMessage', 'bad-up', false],
  ['ApproximateNumberOfMessagesVisible', 'bad-up', false],
  ['IteratorAge', 'bad-up', false],
  ['DeliveryToS3.DataFreshness', 'bad-up', false],
  ['ReplicaLag', 'bad-up', false],
  // Credits a resource spends above its baseline: what is left runs out going down; surplus credits charged pile up.
  ['BurstBalance', 'bad-down', false],
  ['CPUCreditBalance', 'bad-down', false],
  ['EBSIOBalance%', 'bad-down', false],
  ['EBSByteBalance%', 'bad-down', false],
  ['CPUSurplusCreditBalance', 'bad-up', false],
  // An EFS file system in bursting mode: its credits, and the throughput it is permitted, fall when they run out.
  ['BurstCreditBalance', 'bad-down', false],
  ['PermittedThroughput', 'bad-down', false],
];

describe('what a metric name says', () => {
  it.each(readings)('%s reads %s, event count %s', (name, meaning, eventCount) => {
    expect(meaningOf(name)).toBe(meaning);
    expect(isEventCount(name)).toBe(eventCount);
  });
});

describe('how many copies a scaler asks for', () => {
  it('follows the load or a schedule: it is no demand itself, though its name says count', () => {
    expect(meaningOf('DesiredTaskCount')).toBe('unknown');
  });
});
