import { categoryOfChange, causesIn, onlyLabelsOrWatches } from './cause-signals.ts';
import type { Change } from './evidence-board.ts';
import { memoryLoweredBy, onlyRaisedCapacity, onlyRaisedRateLimit, scalingAddedRoom, timeoutSettingOf } from './lowered-setting.ts';
import { byPolicy } from './scaled-in.ts';
import { labelsAt } from './mechanism.ts';
import type { Signal } from './signals.ts';
import { changeText } from './change-text.ts';

/**
 * What a configuration change can break, read from what it changed. A change names its resource
 * and setting the way AWS APIs and infrastructure tools do (PutSecretValue, DisableKey,
 * RevokeSecurityGroupIngress, ChangeResourceRecordSets, UpdateStage throttling, SetQueueAttributes
 * VisibilityTimeout); each setting can only produce failures of a few kinds. A change explains the
 * errors when what it can break is what they complain about, even when the changed resource shows
 * no metrics of its own (a secret, a key, a rule, a record).
 *
 * The labels are those of cause-signals.ts, plus two failure kinds that no error names: messages
 * handled twice or not at all, replacements of tasks failing health checks, and refusals an
 * error names only by its HTTP status.
 */
/**
 * What a server logs or keeps is written to its own storage: more of it (every statement logged, a
 * longer retention, a verbose log level, a new log file) fills the volume. Logging only schema
 * changes or lock waits writes little.
 */
const writesMoreToDisk =
  /general.?log|slow.?(query.?)?log|long.?query.?time|log.?output|log.?min.?duration|log.?statement\W{1,6}(all|mod)\b|binlog|log.?retention|retention.?(hours|period|days|ms|bytes)|log.?level\b.{0,30}\b(debug|trace|verbose)\b|\b(to|at) debug\b|(rolling.?)?file.?(appender|handler)|log(s|ging)? to (a )?(local )?files?\b/i;

/** What policies that grant or deny nothing govern: a CDN's response headers, cache and origin requests; object lifecycles and retention; retries, redrive and delivery; scaling. */
const otherPolicies = 'headers?|cache|origin.?request|lifecycle|retention|retry|redrive|delivery|scaling|backup|placement|termination|update';

const settingEffects: readonly { label: string; pattern: RegExp }[] = [
  { label: 'credentials', pattern: /secret|password|credential|api.?key|access.?key|\btoken/i },
  { label: 'disabled key', pattern: /DisableKey|ScheduleKeyDeletion|\bkms\b|\bkey\b.{0,20}(disabled|pending deletion)/i },
  // A policy is an access policy unless it says it governs something else (a CDN's response headers or cache, a lifecycle, retries, scaling).
  { label: 'access denied', pattern: new RegExp(`(?<!(${otherPolicies})[ _-]?)polic(y|ies)|\\brole|permission|\\biam\\b|\\bgrant|\\bwaf\\b|web.?acl|\\bblock|\\bdeny\\b|\\ballow\\b`, 'i') },
  {
    label: 'network',
    pattern: /security.?group|ingress|egress|network.?acl|\bnacl\b|route.?table|\broutes?\b|subnet|\bvpc\b|\bdns\b|resource.?record|record.?set|resolver|hosted.?zone|\bcname\b|firewall|peering|transit.?gateway|\bnat\b/i,
  },
  { label: 'throttling', pattern: /throttl|rate.?limit|burst|usage.?plan|quota|concurren|rate.based|provisioned|capacity/i },
  { label: 'certificate', pattern: /certificate|\bcert\b|\btls\b|\bssl\b|\bacm\b/i },
  { label: 'memory', pattern: /memory|heap/i },
  { label: 'connections', pattern: /max.?connections|pool.?size|connection.?limit|max.?pool/i },
  // How many messages a consumer takes at once sets how long it holds them: a bigger batch worked through one by one outlasts the visibility timeout.
  { label: 'redelivery', pattern: /visibility.?timeout|maxReceiveCount|redrive|deduplication|max.?number.?of.?messages|receive.?max.?messages|max.?messages/i },
  { label: 'undelivered', pattern: /filter.?polic|subscription|unsubscribe|event.?source.?mapping|event.?pattern|PutTargets|RemoveTargets|DisableRule|\bdisabled?\b/i },
  { label: 'health checks', pattern: /health.?check|healthy.?threshold|grace.?period/i },
  // Where a name or setting points clients decides which server their writes reach.
  { label: 'wrong endpoint', pattern: /\bdns\b|resource.?record|record.?set|hosted.?zone|\bcname\b|endpoint|\bhost(name)?\b/i },
  // Work that rewrites or restructures a table holds an exclusive lock on it for as long as it runs.
  { label: 'locks', pattern: /vacuum\W{0,3}(\(\s*)?full|ALTER\s+TABLE|\bREINDEX\b(?!\s+(INDEX\s+|TABLE\s+)?CONCURRENTLY)|\bCLUSTER\s+\w|LOCK\s+TABLE|schema.?migration/i },
  {
    label: 'disk',
    pattern: writesMoreToDisk,
  },
  // Images a registry expires or deletes (a lifecycle policy, BatchDeleteImage) are gone for the tasks that still name them.
  { label: 'missing image', pattern: /BatchDeleteImage|\becr\b.{0,80}lifecycle|lifecycle.{0,80}(\becr\b|repositor|image)|images? .{0,40}(expired|deleted|untagged|purged)|(expire|delete|untag|purge)[sd]? .{0,40}images?\b/i },
];

/**
 * The words of a change, of whatever kind, that set something whose effect is `label` (a release
 * whose task definition also turned its log level to DEBUG writes more to disk), without the quoting.
 */
export const settingWithEffect = (change: Change, label: string): string | undefined =>
  settingEffects.find((effect) => effect.label === label)?.pattern.exec(changeText(change))?.[0].replace(/["{}:,]+/g, ' ').replace(/\s+/g, ' ').trim();

/** Kinds of change that set something up; a deploy can break anything, so it names no kind. */
const configuringKinds = new Set(['config', 'feature-flag', 'iam', 'network', 'certificate', 'scaling', 'other']);

export const failureKindsOfChange = (change: Change): Set<string> => {
  // A release can carry a setting too: one that lowered a memory limit leaves the process that much less room, and one that
  // logs more (a new log file, a verbose level) writes more to its own disk.
  if (!(configuringKinds.has(change.kind) || categoryOfChange(change) === 'config') || onlyLabelsOrWatches(change))
    return new Set([...(memoryLoweredBy(change) ? ['memory'] : []), ...(change.kind === 'deploy' && writesMoreToDisk.test(changeText(change)) ? ['disk'] : [])]);
  // Scaling that only added room (a policy adding write capacity, tasks scaled out) breaks nothing.
  if (scalingAddedRoom(change)) return new Set();
  const text = changeText(change);
  const labels = new Set([
    ...settingEffects.filter(({ pattern }) => pattern.test(text)).map(({ label }) => label),
    ...causesIn(text).filter((hit) => hit.category !== 'config').map((hit) => hit.label),
    // A timeout it wrote cuts off what takes longer.
    ...(timeoutSettingOf(change) ? ['cut off'] : []),
  ]);
  // A limit raised refuses fewer requests, never more.
  if (onlyRaisedRateLimit(change.summary)) labels.delete('throttling');
  return labels;
};

/**
 * Failures no error message names, read from what the evidence says happened to the work: handled
 * again (a message received more often than sent, duplicates, a dead-letter queue filling), never
 * handled (filtered out, a consumer whose invocations stopped), or tasks replaced on failed health checks.
 */
const unnamedFailures: readonly { label: string; pattern: RegExp }[] = [
  { label: 'redelivery', pattern: /duplicate|twice|redeliver|more than once|receive.?count|MessagesReceived|dead.?letter|\bdlq\b/i },
  // A rule or subscription whose count of what it matched or delivered stopped passes nothing on.
  { label: 'undelivered', pattern: /filtered|undeliver|not delivered|never (got|received|arrived)|missing (email|message|notification)s?|\b(MatchedEvents|TriggeredRules|NumberOfNotificationsDelivered) stopped\b/i },
  { label: 'health checks', pattern: /health.?checks?|unhealthy|UnHealthyHost/i },
  // Writes a read-only server refuses (a replica, a reader endpoint, a demoted writer): the writer reached the wrong server.
  { label: 'wrong endpoint', pattern: /read.only transaction|read.only (mode|replica|server|node)|--read-only option|super_read_only|READONLY You can't write/i },
  // Requests given up on before their answer came: a gateway's 504, a peer that closed the connection, a client that aborted.
  { label: 'cut off', pattern: /(^|[^0-9])504([^0-9]|$)|gateway.?time.?out|EPIPE|client closed|closed (the )?connection|(^|[^0-9])499([^0-9]|$)|aborted after|deadline exceeded/i },
  // An identity the callee no longer accepts: HTTP 401 and the words APIs answer it with.
  { label: 'credentials', pattern: /\b401\b|unauthori[sz]ed|invalid.?(api.?key|access.?key(.?id)?|token|credentials?|signature)|key.?not.?active|expired.?token/i },
  // A connection that never got through, in the words clients time out or are refused with that do not
  // name a network cause themselves (those in cause-signals.ts' network pattern reach here through labelsAt).
  { label: 'network', pattern: /connect(ion)?.?time.?out|connection refused|ECONNREFUSED|ECONNRESET/i },
  // Statements given up on while they waited for a lock: what holds it, not the statement, is why.
  { label: 'locks', pattern: /lock.?timeout|lock wait timeout|waiting for \w*Lock\b|could not obtain lock/i },
  // Requests a filter in front of the service refuses: a firewall's blocked count, HTTP 403, a 4XX count
  // rising (an API or bucket answering its callers with refusals).
  { label: 'access denied', pattern: /blocked|\b403\b|forbidden|\b4xx/i },
];

/** What failures people report in their own words (a page's title, a question): "charged twice" is work handled again. */
export const failureKindsSaid = (words: readonly string[]): Set<string> =>
  new Set(unnamedFailures.filter(({ pattern }) => words.some((text) => pattern.test(text))).map(({ label }) => label));

/** What the failures in these signals are, in the labels a change's effects are read in; where a signal shows says something too (a dead-letter queue's backlog). */
export const failureKindsIn = (signals: readonly Signal[]): Set<string> =>
  new Set([...labelsAt(signals), ...unnamedFailures.filter(({ pattern }) => signals.some((signal) => pattern.test(`${signal.service} ${signal.text}`))).map(({ label }) => label)]);

/** Labels that name the same failure seen from another side: a refused credential is denied access, a disabled key denies too. */
const sameFailure: Readonly<Record<string, readonly string[]>> = {
  credentials: ['access denied'],
  'disabled key': ['access denied'],
  'access denied': ['credentials', 'disabled key'],
};

/** Whether a change can produce the failures labelled `evidenceKinds` (failureKindsIn). */
export const changeExplains = (change: Change, evidenceKinds: ReadonlySet<string>): boolean =>
  [...failureKindsOfChange(change)].some((label) => evidenceKinds.has(label) || (sameFailure[label] ?? []).some((other) => evidenceKinds.has(other)));

/**
 * Words that say a change started work: a job, task or batch launched, a backfill, an import, a
 * campaign sent, or a schedule created or enabled (each of its runs is launched work).
 */
const workStarted = /RunTask|StartJobRun|StartExecution|StartBuild|job .{0,40}(created|started|submitted)|batch (operations|job)|backfill|bulk|import|re-?index|reprocess|replay|campaign|load.?test|migration|export|fan.?out|enroll|CreateSchedule|EnableRule|schedule\b.{0,60}\b(created|enabled)\b/i;

/**
 * A client scaled out by hand runs more copies of its work at once: more connections, calls and
 * writes on what they share. A policy's scale-out answers load (Application Auto Scaling's own
 * activities included), so it launches nothing.
 */
const scaledOutByHand = (change: Change): boolean => {
  const text = changeText(change);
  return change.kind === 'scaling' && onlyRaisedCapacity(text) && !byPolicy.test(text) && !/Application Auto Scaling/i.test(text);
};

/** A change that launched work whose load arrives at what the work uses. A release changes code; it launches nothing. */
export const startsWork = (change: Change): boolean => change.kind !== 'deploy' && (workStarted.test(changeText(change)) || scaledOutByHand(change));
