/**
 * What a move of a metric means, read from its name: whether going up or down is bad, or whether
 * it measures demand (traffic) rather than health. Checked in order, most specific first.
 */
export type MetricMeaning = 'bad-up' | 'bad-down' | 'demand' | 'unknown';

/** Words of things that go wrong one at a time: each is an error, a refusal, a retry or a kill. */
const failureWords = 'throttl|error|fault|fail|5xx|4xx|(?<![0-9])5[0-9]{2}(?![0-9])|reject|block|denied|timeout|dead|retry|restart|oom|kill|evict|exception|crash|drop';

const rules: readonly [RegExp, MetricMeaning][] = [
  [/unhealthy/i, 'bad-up'],
  // What is left (free space, burst or CPU credits a resource spends above its baseline) runs out going down; what is permitted (EFS PermittedThroughput) is held back going down.
  [/free|available|healthy|success|hit.?rate|uptime|burst.?balance|(?<!surplus)credit.?balance|io.?balance|byte.?balance|permitted/i, 'bad-down'],
  // Work refused or thrown away (blocked by a firewall, denied, filtered out, discarded) is lost work; so is what lands in a dead-letter queue.
  [new RegExp(`${failureWords}|filtered|discard|dlq`, 'i'), 'bad-up'],
  [/latency|duration|response.?time|p9\d|wait|oldest|(^|[^a-z])age([^a-z]|$)|lag|backlog|visible|delay|queue|depth|iterator|freshness|staleness/i, 'bad-up'],
  // DBLoad (Performance Insights) counts sessions active at once, waiting or working: a database's saturation.
  [/cpu|memory|mem|heap|utili[sz]ation|connections|pool|checked.?out|leased|disk|storage.?used|bytes.?used|swap|saturation|concurren|threads|file.?descriptors|gc|db.?load|active.?sessions/i, 'bad-up'],
  // How many copies a scaler asks for (DesiredTaskCount, GroupDesiredCapacity) follows the load or a schedule: it is no load itself.
  [/desired/i, 'unknown'],
  [/request|invocation|count|rps|tps|throughput|iops|incoming|messages|notifications|records|events|published|delivered|sent|received|consumed|traffic|sessions|users/i, 'demand'],
];

/** A count of messages or jobs waiting to be worked (a queue's visible messages, a backlog's depth); not those in flight (NotVisible). */
export const waitingCount = /backlog|(?<!not)visible|depth|pending|queue.?(size|length)/i;

/** Copies of a service running (ECS tasks, Auto Scaling instances in service): more is more work done, none is the work stopped. */
export const runningCapacity = /running.?task|tasks?.?running|in.?service.?(instances|capacity)|running.?instances/i;

export const meaningOf = (metricName: string): MetricMeaning => rules.find(([pattern]) => pattern.test(metricName))?.[1] ?? 'unknown';

export const isBadShift = (metricName: string, direction: 'up' | 'down'): boolean => {
  const meaning = meaningOf(metricName);
  return (meaning === 'bad-up' && direction === 'up') || (meaning === 'bad-down' && direction === 'down');
};

/**
 * A measure of how full a finite resource is, or of work piling up: storage, memory, connections,
 * CPU, descriptors, a backlog. Such a measure that grows day over day runs out, however regularly it
 * rises and falls within a day.
 */
const fullness = /disk|storage|volume|memory|heap|swap|connections|pool|cpu|utili[sz]ation|inode|file.?descriptors|free|available|backlog|visible|depth|pending|queue.?(size|length)|iterator.?age/i;

export const isFullnessMeasure = (metricName: string): boolean => fullness.test(metricName);

/** A count of events (throttles, errors, retries): CloudWatch publishes it only while events happen, so its silence reads zero. */
const eventCount = new RegExp(`${failureWords}|events?$|count$`, 'i');

export const isEventCount = (metricName: string): boolean => eventCount.test(metricName);

const failureMeasure = new RegExp(`${failureWords}|dlq|unhealthy`, 'i');

/** A measure of work failing or refused (errors, throttles, 5XX, a dead-letter queue), which no schedule or announcement excuses. */
export const measuresFailure = (metricName: string): boolean => failureMeasure.test(metricName);

/** What a measure is about, whatever its exact name: an alarm called "orders-backlog-high" watches a queue's visible messages. */
const measureClasses: readonly [string, RegExp][] = [
  ['backlog', /backlog|visible|depth|queue|message|iterator|oldest|(^|[^a-z])age([^a-z]|$)|lag/i],
  ['latency', /latency|duration|response.?time|p9\d|slow/i],
  ['cpu', /cpu|processor/i],
  ['memory', /memory|mem\b|heap|swap|freeable/i],
  ['storage', /disk|storage|volume|bytes.?used|inode/i],
  ['connections', /connection|pool/i],
  ['throttles', /throttl/i],
];

export const measureClassesOf = (name: string): Set<string> => new Set(measureClasses.filter(([, pattern]) => pattern.test(name)).map(([label]) => label));
