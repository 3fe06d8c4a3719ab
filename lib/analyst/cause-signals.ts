import type { RemediationAction, RootCauseCategory } from '../domain/vocabulary.ts';
import type { Change } from './evidence-board.ts';
import { changeText } from './change-text.ts';

/**
 * Phrases in error messages, metric names and change records that point at a kind of cause.
 * General operational knowledge, not tuned to any one incident: each pattern is what the
 * failure says about itself in common stacks (AWS SDKs, JVM, Node, Postgres, MySQL, nginx).
 */
export const causePatterns: readonly { category: RootCauseCategory; pattern: RegExp; label: string }[] = [
  { category: 'certificate', label: 'certificate', pattern: /x509|\btls: |pinned (public )?key|public key pin|\bssl\b(?![:_-](protocol|cipher|default|none|true|false)\b|\s+(enabled|disabled|on|off)\b)|tls handshake|TLSNegotiationError|handshake fail|cert(ificate)?.{0,20}expir|PKIX|CERT_HAS_EXPIRED|unable to verify|certificates?\b.{0,80}(expir|invalid|verif|valid|revoked|trust|mismatch|chain|authority|issuer|altname|renew|not after|not before|pin)|(expir|invalid|verif|revoked|untrusted|renew|ssl|tls|x509|acm|server|client|peer|leaf|intermediate|self.signed|issuer|\bca)\W{1,3}(\w+\W{1,3}){0,3}certificates?\b/i },
  { category: 'permissions', label: 'disabled key', pattern: /KMS.{0,40}(disabled|pending deletion)|DisabledException|KMSInvalidStateException|key .{0,30}is disabled/i },
  { category: 'permissions', label: 'credentials', pattern: /password authentication failed|Access denied for user|authentication failed|invalid (credentials|password|api.?key)|SignatureDoesNotMatch|secret.{0,40}(rotat|stale|cached)/i },
  { category: 'permissions', label: 'access denied', pattern: /AccessDenied|InsufficientPrivilege|insufficient privilege|not authori[sz]ed|UnauthorizedOperation|is not authorized to perform|permission denied|Forbidden|\b403\b|InvalidClientTokenId|ExpiredToken|KMS.{0,20}(denied|disabled)/i },
  { category: 'network', label: 'network', pattern: /ENOTFOUND|EAI_AGAIN|getaddrinfo|NXDOMAIN|\bDNS\b|could not resolve|name resolution|unknown host|UnknownHostException|no route to host|EHOSTUNREACH|network (is )?unreachable|security group|network ?acl|\bNACL\b|route table|packet loss|connect(ion)?( to \S+)? timed out|connection attempt failed|ETIMEDOUT|i\/o timeout/i },
  // A scheduler with no host left that fits a task (ECS service events, Kubernetes FailedScheduling): the hosts ran short, not the task.
  { category: 'resource-exhaustion', label: 'placement', pattern: /unable to place (a )?task|no container instance met all of its requirements|insufficient (memory|cpu) available|\b\d+ Insufficient (memory|cpu)\b|RESOURCE:(MEMORY|CPU)\b/i },
  { category: 'resource-exhaustion', label: 'memory', pattern: /OutOfMemory|out of memory|\bOOM\b|OOMKilled|heap (space|out)|memory (limit|exhaust|pressure)|exit code 137|JavaScript heap|GC overhead|allocation fail/i },
  // A proxy that cannot reuse a database connection while the client session pinned to it lasts (RDS Proxy's pinning): its pool fills with them.
  { category: 'resource-exhaustion', label: 'pinning', pattern: /session (was |is )?pinned|pinned to the (database )?connection|SessionPinned|connection pinning/i },
  { category: 'resource-exhaustion', label: 'connections', pattern: /too many (connections|clients)|connection pool|pool (exhausted|timeout)|timeout acquiring|acquire.{0,30}connection|max_connections|remaining connection slots|connection limit|could not obtain connection|no available connections|idle ?count ?[=:]? ?0\b|timeout exceeded when trying to connect|checked out .{0,40}without (being )?release|(connection|client)s? (leak|not released|never released)/i },
  { category: 'resource-exhaustion', label: 'disk', pattern: /no space left|ENOSPC|disk (is )?full|disk quota|storage (full|exhausted)|FreeStorageSpace|inode|volume full|(disk|volume|storage).?used|used.?(disk|storage)|table '?[\w.]+'? is full|errno:? ?28\b|ephemeral.?(local.?)?storage (usage )?exceeds|low on resource:? ?ephemeral-storage/i },
  { category: 'resource-exhaustion', label: 'burst credits', pattern: /BurstBalance|burst (balance|credits?)|(?<!surplus)CreditBalance|CPU credits?|EBS(IO|Byte)Balance|I\/O credits?/i },
  { category: 'resource-exhaustion', label: 'IP addresses', pattern: /InsufficientFreeAddressesInSubnet|AvailableIpAddressCount|free (IPv4 |private |IP )*addresses|available IPv4 addresses|failed to (allocate|assign) (a |an )?(private )?IP|IP address(es)? (exhausted|depleted)|no (free|available) IP/i },
  // A NAT gateway out of source ports for one destination (its ErrorPortAllocation metric), or a host out of ephemeral ports.
  { category: 'resource-exhaustion', label: 'ports', pattern: /ErrorPortAllocation|port allocation|(ephemeral|source) ports?\b.{0,40}(exhaust|ran out|run out|in use|unavailable)|port exhaustion|EADDRNOTAVAIL|cannot assign requested address/i },
  { category: 'resource-exhaustion', label: 'threads', pattern: /too many open files|EMFILE|thread pool (exhausted|full)|file descriptors|worker pool|RejectedExecution|ulimit/i },
  { category: 'resource-exhaustion', label: 'replication lag', pattern: /replica(tion)?.?lag|ReplicaLag|seconds.behind.(master|source)|replay lag/i },
  // The database's own account of sessions queued behind a lock another transaction holds (PostgreSQL's
  // log_lock_waits, a Performance Insights lock wait). A client's lock wait timeout is only its side of it.
  { category: 'resource-exhaustion', label: 'locks', pattern: /still waiting for \w*Lock\b|Process holding the lock|Lock:(transactionid|tuple|relation)|blocked by (process|pid|session)/i },
  { category: 'resource-exhaustion', label: 'table scan', pattern: /full (table )?scan|seq(uential)? scan|missing index|without (an )?index|no index|rows.?examined|filesort/i },
  { category: 'traffic', label: 'throttling', pattern: /throttl|Rate exceeded|ProvisionedThroughputExceeded|UnprocessedItems|TooManyRequests|\b429\b|concurrency limit|ReservedConcurrency|limit exceeded|request limit|RequestLimitExceeded|SlowDown|load shedding|quota (exceeded|exhausted|reached)|exceeded (its |the |your )?quota/i },
  // A value the code cannot handle (malformed, out of range, impossible, missing) is bad input; a null
  // dereference or a call on the wrong type is a defect in the code, which a release brings. A field
  // that is merely logged as null (a reference the peer never returned) says nothing about the data.
  // Node's fetch reports a request that never got an answer as "TypeError: fetch failed" (its cause says why): no defect.
  { category: 'deploy', label: 'code defect', pattern: /NullPointerException|null pointer|properties of (null|undefined)|TypeError(?!: fetch failed)|is not a function|undefined method|NoMethodError|ClassCastException|AttributeError|segmentation fault/i },
  { category: 'data', label: 'bad data', pattern: /corrupt|checksum|DecodeError|(cannot|could not|failed to|unable to) decode|decoding (error|failed)|Unterminated string|Unexpected (end of (JSON|input)|token)|invalid (record|payload|data|message|json|time|date|value|format|input|character|enum)|malformed|deserializ|parse error|failed to parse|unparseable|cannot (parse|convert)|unrecogni[sz]ed (field|property)|UnrecognizedProperty|KeyError|missing (required )?(field|key|property)|RangeError|out of range|schema (mismatch|violation)|\bNaN\b|mismatch|poison|unexpected null|constraint violation|duplicate key|negative (amount|total|price|quantity)|data integrity|inconsistent|\bis (empty|missing|blank)\b|duplicate|twice|double[- ]count/i },
  { category: 'infrastructure', label: 'AWS infrastructure', pattern: /volume ?queue|iowait|i\/o (stall|wait)|hung task|blocked for more than|disk (stall|latency)|availability zone|\bAZ\b|us-[a-z]+-\d[a-z]\b|EBS|volume (impaired|degraded)|hardware|host (retirement|degrad)|instance status check|system status check|impaired|AWS Health|service event|underlying host|degraded performance/i },
  // A task that cannot start because the image its definition names is not in the registry (deleted, expired, never pushed).
  { category: 'config', label: 'missing image', pattern: /CannotPullContainerError(?!.{0,200}(denied|unauthori[sz]ed|forbidden|timeout|timed out|i\/o))|manifest (unknown|not found)|failed to resolve ref|image .{0,80}(not found|does not exist)|ImagePullBackOff|ErrImagePull/i },
  // A limit "configured" for a resource (DynamoDB's "configured provisioned throughput ... was exceeded") names the limit, not a wrong setting.
  { category: 'config', label: 'configuration', pattern: /config(uration)?(?!ured\b)|feature flag|misconfigur|invalid (setting|parameter|value)|missing (env|environment|setting|parameter)|property .* not set|unknown option/i },
];

export interface CauseHit {
  category: RootCauseCategory;
  label: string;
  text: string;
}

/** A guess the logger asks rather than states ("was sent SIGKILL! Perhaps out of memory?") names no cause. */
const hedgedGuess = /\b(perhaps|maybe|possibly|probably)\b[^.?!\n]*\?/gi;

/** A repeat the code recognised and set aside ("duplicate event ignored") is idempotency at work, not bad data. */
const handledRepeat = /\b(duplicate|already (processed|seen|handled|applied))\b[^.;\n]{0,80}\b(ignored|skipped|discarded|dropped)\b|\b(ignor|skipp|discard)(ed|ing) (a |the |an? )?(duplicate|repeat(ed)?)\b|\bdeduplicated\b/gi;

/** A count of none (`skipped_duplicates=0`, `timeouts: 0`) says what did not happen. */
const countOfNone = /\b[\w.-]+[=:]\s*0(?![\d.])/g;

/** Advice a line gives ("To avoid pinning, move …", "Consider moving session configuration to …") names a remedy, not a cause. */
const adviceGiven = /\bto (avoid|prevent) [^,.\n]{1,60}, [^.\n]*|\b(consider|try) (moving|using|adding|raising|increasing|setting|enabling|changing)\b[^.\n]*/gi;

export const causesIn = (text: string): CauseHit[] => {
  const stated = text.replace(hedgedGuess, '').replace(handledRepeat, '').replace(countOfNone, '').replace(adviceGiven, '');
  return causePatterns.filter(({ pattern }) => pattern.test(stated)).map(({ category, label }) => ({ category, label, text }));
};

const changeCategories: Readonly<Record<string, RootCauseCategory>> = {
  deploy: 'deploy',
  config: 'config',
  'feature-flag': 'config',
  iam: 'permissions',
  certificate: 'certificate',
  network: 'network',
  infrastructure: 'infrastructure',
};

/** A run of infrastructure as code (a CloudFormation stack update, a terraform apply, a CDK deploy). */
const codeApplied = /terraform apply|cloudformation|update_complete|cdk deploy|pulumi up/i;
/** Resources it modified in place, rather than created or replaced. */
const modifiedInPlace = /in[- ]place|"action":\s*"modify"|\bmodif(y|ied)\b|\bupdated\b/i;
/** An API call that sets a resource's settings (UpdateUsagePlan, ModifyTargetGroup, PutBucketPolicy, SetQueueAttributes). */
const settingCall = /\b(Update|Modify|Put|Set)[A-Z]\w+/;

/**
 * CloudTrail events that only label a resource or watch it: tags, and DynamoDB's Contributor Insights
 * (it samples which keys are used) change nothing the resource does. Access that tags govern fails
 * with permission errors, which the policies that read them explain.
 */
const labelsOrWatchesOnly = /^(?:CloudTrail:? )?(?:CreateTags|DeleteTags|TagResource|UntagResource|AddTags\w*|RemoveTags\w*|UpdateContributorInsights)\b/;

/** Whether a change only labels or watches what it touches (labelsOrWatchesOnly): it can break nothing. */
export const onlyLabelsOrWatches = (change: Change): boolean => {
  const eventName = change.details?.['eventName'];
  return labelsOrWatchesOnly.test(typeof eventName === 'string' ? eventName : change.summary);
};

/**
 * A change of this kind, just before the trouble, is a cause of this category. Scaling is left out:
 * it is almost always the platform reacting to the trouble, not causing it. Infrastructure as code
 * that modified resources in place wrote their settings (a queue's policy, a subscription's
 * attributes): a configuration change, however it was filed, and undone by reverting it.
 */
export const categoryOfChange = (change: Change): RootCauseCategory | undefined => {
  if (onlyLabelsOrWatches(change)) return undefined;
  const text = changeText(change);
  if (change.kind === 'infrastructure' && codeApplied.test(text) && (modifiedInPlace.test(text) || settingCall.test(text))) return 'config';
  return changeCategories[change.kind];
};

/** Words in runbook steps that name a remediation action. */
export const actionPatterns: readonly [RemediationAction, RegExp][] = [
  ['rollback', /roll ?back|redeploy the previous|revert (the )?(deploy|release|version)|previous (version|release|task definition)/i],
  ['revert-config', /revert|restore (the )?(previous )?(config|setting|policy|rule|record|parameter)|undo/i],
  // "Renewal" alone is a subscription's or a run's as often as a certificate's.
  ['renew-certificate', /\brenew(?!al)|cert(ificate)? renewal|re-?issue|replace (the )?cert/i],
  ['rotate-credentials', /rotate/i],
  ['restart', /restart|recycle|bounce|redeploy (the )?(task|service)|force.?new.?deployment|reboot/i],
  ['scale', /scale|increase (the )?(capacity|limit|concurrency|size|pool|provisioned|storage)|add (capacity|instances|replicas)|raise/i],
  ['failover', /fail ?over|shift traffic|evacuate|move traffic|drain (the )?(az|zone)|switch to (the )?(backup|secondary|standby)/i],
  ['limit-traffic', /throttle|rate.?limit|shed load|limit (the )?traffic|back ?off|reduce (the )?(request|call) rate|circuit.?break/i],
  ['apply-fix', /fix|patch|repair|clean ?up|delete (old|the)|purge|correct the|reprocess|quarantine/i],
  ['escalate', /escalate|page|contact|open a (support )?case|vendor/i],
];
