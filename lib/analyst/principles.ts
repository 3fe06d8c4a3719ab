/**
 * The inference principles of the offline analyst, each named once with its statement in plain
 * words. A rule that decides part of a diagnosis returns its result tagged with the name of the
 * principle it applies; the diagnosis lists the principles that shaped it, and the report states
 * them. test/analyst/principle-coverage.test.ts checks that each one shapes scenarios of at least
 * two families: a principle that only one kind of incident ever needs is tuning, not knowledge.
 */
export const principles = {
  // Verdict: a "no incident" needs positive evidence that every alert is benign.
  'alarm-recovered': 'an alarm back to OK, with nothing failing at its service now, is explained',
  'retired-resource': 'what a resource taken out of service shows (silence, missing data) is expected',
  'announced-work': 'work announced beforehand explains its load, and the refusals of it or a replica it leaves behind only inside a window announced for it, or the refusals it says it will give; never failures',
  'recurring-rise': 'a rise that came the same way at the same time of day on earlier days is a schedule’s load',
  'rose-with-benign-load': 'what rose at the same moment as a load already explained as benign (a recurring job, a backlog being worked off, announced work), where the load comes from, lands or is done, without failing anything, is that load',
  'draining-backlog': 'a backlog falling steadily since its peak is being worked off, not stuck',
  'automated-probing': 'client errors answered to scanners and crawlers are not users being refused',
  'one-caller-refused': 'client errors one caller alone gets, while the others are served and nothing that decides who gets in changed, are that caller’s problem',
  'brief-spike-recovered': 'an alert whose measure spiked and came back, with nothing failing now, has recovered',
  'standing-condition': 'an alarm in ALARM since long before the evidence, with nothing new, is a standing condition',
  'alarm-redefined': 'an alarm redefined shortly before it fired, on a measure no worse than it already was before the change, is the alarm’s news, not the system’s',
  'unexplained-alert-is-incident': 'an alert nothing benign explains is an incident, its cause undetermined and escalated when nothing names one',

  // Where the fault starts.
  'failures-before-refusals': 'with no alert to start from, a service failing requests comes before an unrelated one that only turns away what its callers sent',
  'release-added-dependency': 'a dependency its caller began to call only with its latest release is on the path because of that release, which is what changed',
  'shared-dependency-changed': 'services that fail independently after a dependency they share changed fail because of that change',
  'counted-failures-before-logged': 'with no alert to start from, a trouble a measure counts comes before an unrelated one whose logged errors its own failure counts never registered',
  'follow-failure-down-calls': 'the fault starts at the dependency whose failure explains its caller’s, followed down the calls; a failure the caller recovered from explains nothing after it',
  'own-side-complaint': 'a caller that says the trouble is on its own side does not point at the callee',
  'fault-on-the-way': 'a connection that never got through blames the resource on the way that shows a fault of its own',
  'own-defect-first': 'a service failing on a defect of its own (its code, or killed for the memory it uses) is not explained by lesser complaints about a callee from before it failed, nor by those that echo it after',
  'own-fault-first': 'a dependency whose own evidence names a fault of its own is the next link before one that is only named',
  'bad-gateway-at-target': 'a load balancer that answers 502 itself while its target shows no failure of its own lost its connections to that target (a keep-alive shorter than the balancer’s idle timeout): the target, not what it calls, is where the fault is',
  'targets-fail-health-checks': 'a load balancer whose targets fail its health checks has fewer or none to send requests to: the target changed last before they turned unhealthy is where the fault is, and its change what to undo',
  'eager-redrive': 'a dead-letter queue filling after its queue was set to move a message there after one or two receives gives no retry to what failed once for a passing reason: that setting is the cause (config)',
  'rotation-failed': 'credentials refused after a secret’s rotation function failed past its first step are the half-done rotation’s doing: the function, not the secret or the clients refused, is where the fault is',
  'hosts-resized': 'tasks that find no host after the hosts were redefined (another instance type or template) ran out of the room the old hosts had: that change, up to a week before, is the cause; it is reverted and the hosts scaled out',
  'payload-outgrew-limit': 'a resource refusing a payload for its size (a state’s 256 KB, a message’s 256 KiB) shows where it grew: the service along its calls whose bytes rose first, with its change; it is undone there, and the payload passed by reference',
  'integration-timed-out': 'a gateway that gave up waiting for its integration (API Gateway’s 29 s) is fine: the backend whose runs passed that limit is where the time goes',
  'capacity-behind-starved': 'a service refused for want of capacity, without a surge of its own, shows the shared capacity behind it',
  'own-change': 'a change at the failing resource just before its trouble started it',
  'caller-change': 'a caller’s change right before both broke together explains the dependency, unless it fails as well for a caller that did not change',
  'change-effect-matches': 'a change whose possible effect is what the errors complain about explains them, wherever it was made',
  'change-shows-when-work-resumes': 'a change made while the work it affects was idle shows when that work next runs, however long after',
  'change-ended-clean-run': 'a resource whose failures, absent for a day or more, began after one change to it failed because of that change, however long before',
  'latent-setting': 'a setting changed at the failing resource, days before, whose effect is exactly the failure it shows waited for the condition it governs',
  'failure-dated-by-its-kind': 'a change is measured against the first sign of the failure it can produce, not against a coarser reading that dated the trouble before it',
  'carrier-shows-handler-fault': 'a resource that only passes work along, with no fault of its own, shows the fault of the code that handles its work',
  'handler-names-source': 'a handler whose failures name where its work came from points to that source',
  'replica-replays-source': 'a lagging replica replays what its source is sent: the load is on the source',
  'resource-names-its-client': 'a resource’s own account of who loads it names the client',
  'work-launched-is-load': 'work launched just before a shared resource ran out is its load',
  'load-follows-client-runs': 'a shared resource whose load steps up when each run of a client starts and down when it ends carries that client’s runs',
  'early-client-is-load': 'the client whose own trouble or demand began no later than the shared resource’s drove it there',
  'retries-amplify': 'a callee asked many times more often per request its caller serves than usual, or whose refusals its caller tries again at once, is hammered by that caller’s retries',
  'load-routed-by-change': 'a service sent several times its requests by a routing change (new DNS or listener weights) was not scaled for them: the routing setting is the cause (config), and its capacity what gives way',
  'addresses-held-by-co-tenant': 'a service that cannot start tasks for want of IP addresses in its subnets is starved by the workload that started many copies in the same subnets: its copies hold the addresses, and scaling it in frees them',
  'flood-from-upstream': 'a service in trouble while the work sent to it surged did not make its own load: the change upstream that let the flood loose did',
  'cache-misses-are-load': 'an origin whose demand surged while the cache in front of it hit less carries that cache’s misses: the cache, and its latest change, is where the load comes from',
  'co-tenant-took-quota': 'a throttled service without a surge of its own lost an account quota to a co-tenant whose use rose',
  'client-change-at-shared-resource': 'a change at a client active on a shared resource, just before the resource’s trouble, explains it',
  'sole-failing-caller': 'a dependency that serves again the callers that stumbled with it, or serves its other callers throughout, is working: the one caller failing on it holds what it kept from before',
  'stale-data-writer': 'data its readers find out of date is the fault of the writer upstream that stopped refreshing it: the latest change to that writer, or to what starts it, is where it stopped',
  'bad-data-writer': 'bad data is the fault, and the category, of whoever wrote it first upstream of the reader that fails on it',
  'writer-kept-old-values': 'data its reader finds wrong or old while nothing fails was kept old by the writer on its way that began, shortly before, to write its last known values in place of what it could not get',
  'value-shifted-at-writer': 'a value that held steady and then came out an order of magnitude off (ten or a hundred times, or its reciprocal) was written wrong: whoever logged the new value first is the cause, and the category is data',
  'sparse-root-errors': 'a root with too few error lines to mine speaks through those lines',

  // What kind of cause it is.
  'category-from-change': 'the change that started the trouble gives the category, unless the evidence names a mechanism it cannot be',
  'certificate-over-change': 'a failing certificate is a certificate cause even when a change of another kind came before it',
  'category-from-change-effect': 'a change whose kind names no category is the kind of cause it can only be: what it can break',
  'capacity-cut': 'a capacity setting lowered just before the trouble is the cause (config): restore the capacity, then revert the setting',
  'overload-is-traffic': 'a client whose load swamps a shared resource is a traffic cause',
  'provider-is-external': 'a third party’s failure is external unless its evidence names a mechanism that decides the category',
  'category-from-evidence': 'the category is the cause the root’s own evidence names most',
  'refusal-is-permissions': 'a refusal named only by its HTTP status is a permissions fault',
  'demand-surge-is-traffic': 'a root whose own demand surged, with nothing else named, is a traffic cause',
  'saturation-is-exhaustion': 'a rise or alarm on how full a finite resource is (storage, memory, connections, CPU) is resource exhaustion',
  'dependency-or-undetermined': 'with nothing naming a cause, a root behind the symptom is a failing dependency, and the symptom itself is undetermined',

  // How it works, in plain words.
  'mechanism-memory': 'a process stopped at its memory limit has run out of memory',
  'mechanism-connections': 'a connection limit reached refuses new connections',
  'mechanism-disk': 'a volume whose free space runs out is full',
  'mechanism-ip-addresses': 'a subnet out of free addresses cannot give new network interfaces one',
  'mechanism-burst-credits': 'a resource that spent the credits it bursts on is held to its baseline',
  'mechanism-threads': 'a process out of threads or file descriptors cannot take more work',
  'mechanism-replication-lag': 'a replica that cannot keep up with the write load it is sent falls behind',
  'mechanism-locks': 'sessions queued behind locks another transaction holds are blocked until it ends',
  'mechanism-retained-log': 'a database keeps its write-ahead log for a replication slot until the slot\'s consumer reads it: a stopped consumer fills the database\'s storage',
  'mechanism-table-scan': 'a query that scans far more rows than it returns (a missing index) saturates the database',
  'mechanism-throttling': 'requests above a limit are throttled',
  'mechanism-certificate': 'handshakes fail on a certificate that is not valid',
  'mechanism-disabled-key': 'an encryption key that is disabled makes the calls that need it fail',
  'mechanism-credentials': 'credentials refused at sign-in are no longer valid',
  'mechanism-access-denied': 'calls are denied when a permission they need is missing or was removed',
  'mechanism-network': 'a network path that stops carrying traffic makes connections fail',
  'mechanism-wrong-endpoint': 'writes refused by a server that only reads reached it through a change to where clients connect (a DNS record, an endpoint): the change is the fault, and the clients keep their connections to the reader until restarted',
  'mechanism-bad-data': 'a reader fails on records it cannot process',
  'mechanism-code-defect': 'code that fails on values it does not expect has a defect',
  'mechanism-infrastructure': 'impaired infrastructure under a resource degrades it',
  'mechanism-configuration': 'errors that name a setting say a configuration is wrong',
  'mechanism-timeout-setting': 'a timeout setting that changed cuts off the requests that take longer than it',
  'mechanism-from-change': 'with no mechanism in the evidence, what the change touched names it',
  'provider-failing-calls': 'a third party whose calls fail fails our services where they depend on it',
  'load-gives-way': 'how a loaded shared resource gives way is read from its own evidence',
  'poison-record': 'a record that fails on every retry blocks what is read after it; it is moved out of the way first',
  'redelivered-messages': 'messages received more often than sent come back before their processing ends',
  'items-expire-early': 'a table’s deletions by TTL jumping while its writer cannot find what it wrote say the expiry it writes changed',
  'rotated-secret': 'a secret changed just before credentials are refused is why they no longer match',

  // What to do.
  'remedy-index-the-scan': 'a query that scans a database for want of an index is fixed at the database, by the index, whatever else is undone',
  'remedy-undo-change': 'a change that caused the trouble is undone first (rolled back or reverted)',
  'remedy-restart-for-credentials': 'a service refused for credentials with no change to undo is restarted so it reads the current secret',
  'remedy-renew-certificate': 'a failing certificate is renewed or replaced',
  'remedy-route-around': 'a network or infrastructure fault with nothing to undo is routed around (failover)',
  'remedy-limit-overloading-client': 'a client swamping a shared resource is slowed down, then its work changed',
  'remedy-scale-for-load': 'a service swamped by its own demand gets capacity',
  'remedy-provider-failover-or-limit': 'a failing provider is routed around, or called less when there is nowhere to go, and escalated to',
  'remedy-repair-bad-data': 'bad data is stopped at its writer and repaired',
  'remedy-release-or-grow': 'exhaustion is relieved by freeing what is held, or by more room when it is used up, then fixed',
  'remedy-escalate-dependency': 'a failing dependency with nothing else to act on is escalated to its owners',
  'remedy-runbook-step': 'the matching runbook’s first action the plan lacks is added',
} as const satisfies Record<string, string>;

export type Principle = keyof typeof principles;

export const principleNames = Object.keys(principles) as Principle[];

/** The principles that shaped a diagnosis, in plain words, for the report. */
export const reasoningLine = (applied: readonly Principle[]): string | undefined =>
  applied.length === 0 ? undefined : `Reasoning: ${applied.map((name) => principles[name]).join('; ')}.`;
