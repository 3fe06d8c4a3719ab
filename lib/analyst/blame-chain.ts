import { severityOf } from '../analysis/log-templates.ts';
import { causesIn } from './cause-signals.ts';
import type { EvidenceBoard, LogRecord } from './evidence-board.ts';
import { namesOwnFault } from './load-source.ts';
import { capacityRemovedAt } from './lowered-setting.ts';
import type { Principle } from './principles.ts';
import { dependenciesOf } from './service-map.ts';
import { namesService, SAME_TIME_MS, type Signal } from './signals.ts';

/**
 * Follows the failure down the call graph from where it shows: at each step, the dependency whose
 * failure best explains the current service's (named in its errors or traces, or failing no later
 * than it) is the next link. The last link is where the fault originates. A dependency whose own
 * evidence names a fault of its own (a full disk, an expired certificate), even in a single line the
 * template miner set aside, is where the failure goes on before one that only shows symptoms or is
 * only named.
 *
 * Some complaints do not point at the callee they name. A wait for a connection from the caller's
 * own pool is the caller's resource running short, whoever the connection is for. A callee that
 * refuses the caller's credential (HTTP 401) works; the caller's key does not. A
 * connection that never got through names where it was going, not why: when a resource on the way
 * (a NAT gateway, a firewall, a database's network) shows its own fault at that moment, that
 * resource is why, and the destination is only named. A service whose own code fails (a TypeError,
 * a null dereference) is not explained by lesser complaints about a callee (a slow call answered from
 * a cache) that were there well before its failure began: it worked through them. Nor is a caller
 * explained by a callee's trouble it recovered from: its own work logged clean for a while after the
 * callee's last failure, before its own trouble began, says that trouble was over. A caller pinned
 * at its own CPU that times out on a callee whose own response time, read, stayed usual lost the
 * time itself (its requests wait for a CPU, not for the callee); its lesser complaints about other
 * callees (a few rate-limit warnings) are that trouble's echo.
 */
/** The sub-rules of the chain that can be set aside to see whether they decided a link. */
type ChainRule = 'own-side-complaint' | 'fault-on-the-way' | 'own-fault-first' | 'own-defect-first';
const chainRules: readonly ChainRule[] = ['own-side-complaint', 'fault-on-the-way', 'own-fault-first', 'own-defect-first'];

export interface TracedChain {
  links: string[];
  /** The principles that decided a link: following the calls, and each sub-rule without which a link would differ. */
  principles: Principle[];
}

export const blameChainTraced = (
  board: EvidenceBoard,
  current: readonly Signal[],
  start: string,
  onsetOf: (service: string) => number,
  visited: readonly string[] = [],
  earliestOnsetOf: (service: string) => number = onsetOf,
): TracedChain => {
  const links = [start];
  const decided = new Set<Principle>();
  for (;;) {
    const node = links.at(-1)!;
    const callees = dependenciesOf(board, node).filter((callee) => !links.includes(callee) && !visited.includes(callee));
    const failingOf = (callee: string) => {
      const own = current.filter((signal) => signal.service === callee);
      // Traces see the whole request path, so a failing segment counts whoever the trace started at;
      // a dependency that is only a little slower or busier is not why its caller fails.
      const failing = own.filter((signal) => signal.kind !== 'mentioned' && signal.substantial && !ownPoolWait.test(signal.text)).reduce((sum, signal) => sum + signal.strength, 0);
      // A callee that keeps no evidence of its own (a DNS record, a router) fails as its other callers report it failing.
      const reportedByOthers = own.some((signal) => signal.kind !== 'mentioned' && signal.kind !== 'alarm')
        ? 0
        : own.filter((signal) => signal.kind === 'mentioned' && signal.from !== node && signal.substantial).reduce((sum, signal) => sum + signal.strength * 0.5, 0);
      // Failing no later than its caller: read at the earliest its trouble may have begun (a coarse series dates it late).
      return earliestOnsetOf(callee) <= onsetOf(node) + SAME_TIME_MS ? failing + reportedByOthers : 0;
    };
    const faultOnTheWay = callees.some((callee) => failingOf(callee) > 0 && showsOwnFault(current, callee));
    const faultOnTheWayBehind = dependenciesOf(board, node).some((callee) => (links.includes(callee) || visited.includes(callee)) && failingOf(callee) > 0 && showsOwnFault(current, callee));
    const namesOwn = (callee: string) => namesOwnFault(board, current.filter((signal) => signal.service === callee), callee, onsetOf(node));
    // A service failing on a defect of its own code (a TypeError, a null dereference), killed for the memory or local storage it uses,
    // whose tasks find no host to run on, left with none to run, or a proxy whose connections its clients' sessions pin, fails by itself, whatever it says about its callees.
    const defects = current.filter(
      (signal) =>
        signal.service === node &&
        ((signal.kind === 'errors' && signal.substantial && causesIn(signal.text).some((hit) => hit.label === 'code defect')) ||
          (signal.kind !== 'mentioned' && (ownMemoryKill.test(signal.text) || ownEviction.test(signal.text) || causesIn(signal.text).some((hit) => hit.label === 'placement' || hit.label === 'pinning')))),
    );
    const removed = capacityRemovedAt(board, node, onsetOf(node));
    const ownDefect = defects.length > 0 || removed !== undefined;
    const ownCpuPinned = current.some((signal) => signal.service === node && signal.kind === 'metric' && signal.substantial && signal.ongoing && /cpu/i.test(signal.text));
    const ownDefectAt = Math.min(...defects.map((signal) => signal.at), removed?.at ?? Infinity);
    const nextLink = (without?: ChainRule): string | undefined =>
      callees
        .map((callee) => {
          const about = current.filter((signal) => signal.service === callee && signal.kind === 'mentioned' && signal.from === node);
          const pinned = without !== 'own-side-complaint' && ownCpuPinned;
          const ownSide = (signal: Signal) => without !== 'own-side-complaint' && (ownPoolWait.test(signal.text) || ownCredentialRefused.test(signal.text) || (pinned && answeredInTime(board, current, callee)));
          // Once the caller says the trouble is on its side, its lesser warnings about the callee (a fallback taken) are that trouble's echo.
          // Lesser complaints about a callee that were there well before the caller's own defect began did not make it fail; those
          // that began with it or after are its echo (a process stopping as it is killed, a service restarted after each kill finds
          // its cache empty and waits on the callee).
          const asideOwnDefect = (signal: Signal) =>
            without !== 'own-defect-first' && ownDefect && !signal.substantial && (signal.at < ownDefectAt - SAME_TIME_MS || signal.at > ownDefectAt);
          const complaints = about.filter((signal) => !ownSide(signal) && !asideOwnDefect(signal) && (signal.substantial || (!about.some(ownSide) && !pinned)));
          const onTheWay = without !== 'fault-on-the-way' && faultOnTheWay;
          const unreached = (signal: Signal) => notGotThrough(signal) && !showsOwnFault(current, callee);
          // Calls that never got through past a faulty resource already in the chain are that resource's: what else the caller says of the callee echoes them.
          const unreachedPastFault = without !== 'fault-on-the-way' && faultOnTheWayBehind && complaints.some(unreached);
          // Beside calls that never got through while a resource on the way shows a fault, what else the caller says of the
          // callee (a partial answer, a fallback taken) echoes the same calls failing: only the calls themselves count, and less.
          const unreachedBeside = onTheWay && complaints.some(unreached);
          const weightOf = (signal: Signal) => (unreachedPastFault ? 0 : onTheWay && unreached(signal) ? 0.5 : unreachedBeside ? 0 : 2);
          const pointedAt = complaints.reduce((sum, signal) => sum + signal.strength * weightOf(signal), 0);
          const own = without !== 'own-fault-first' && namesOwn(callee);
          // A service failing by itself is not explained by a callee that only failed as early, which it never complained of.
          const onlyAsEarly = without !== 'own-defect-first' && ownDefect && pointedAt === 0 && !namesOwn(callee);
          const score = recoveredFrom(board, current, node, callee, onsetOf(node)) || onlyAsEarly ? 0 : pointedAt + failingOf(callee) + (namesOwn(callee) ? 1 : 0);
          return { callee, own, score, onset: onsetOf(callee) };
        })
        .filter(({ score }) => score >= 0.3)
        .sort((a, b) => Number(b.own) - Number(a.own) || b.score - a.score || a.onset - b.onset || a.callee.localeCompare(b.callee))[0]?.callee;
    const next = nextLink();
    for (const rule of chainRules) if (nextLink(rule) !== next) decided.add(rule);
    if (!next) return { links, principles: links.length > 1 ? ['follow-failure-down-calls', ...decided] : [...decided] };
    links.push(next);
  }
};

/** The service's own process or container killed for the memory it used: exit code 137, OOMKilled, a heap that ran out. */
const ownMemoryKill = /exit ?code[=: ]?137|OOMKilled|container killed due to memory|JavaScript heap out of memory|java\.lang\.OutOfMemoryError/i;

/** The service's own pods evicted by the kubelet for the local storage or memory they used. */
const ownEviction = /\bevicted\b.{0,80}\b(ephemeral|local storage|memory)|\bephemeral.?storage\b.{0,80}\bevict/i;

/** Waiting for a connection from one's own pool: the lease, not the call, timed out. */
const ownPoolWait = /connection request to pool|(lease|leasing|acquire|acquiring|checkout|obtain)\w*.{0,40}(connection|from (the )?pool)|pool (lease|exhausted|timeout)|pool lease/i;

/** The callee answered and refused the caller's credential (HTTP 401, a revoked or invalid key): the callee works, the caller's key does not. */
const ownCredentialRefused = /\b401\b|unauthori[sz]ed|invalid.?(api.?key|token|credentials?)|key (is )?(revoked|expired|not active)|expired.?token/i;

/** A connection that never got through: a connect timeout or refusal, with no answer from the other side. */
const notGotThrough = (signal: Signal): boolean => causesIn(signal.text).some((hit) => hit.label === 'network');

const showsOwnFault = (current: readonly Signal[], service: string): boolean => current.some((signal) => signal.service === service && signal.kind !== 'mentioned' && signal.kind !== 'trace');

/** Clean work for this long, in at least this many lines, after a callee's last failure shows its caller recovered from it. */
const RECOVERED_STRETCH_MS = 10 * 60_000;
const FEWEST_CLEAN_LINES = 3;

/**
 * Whether `caller` recovered from `callee`'s trouble before its own began at `callerOnset`: the
 * callee's failures (its own complaints, the caller's complaints naming it, failed calls to it in
 * traces) all ended before then, and the caller then logged its work without a complaint for a
 * while. A callee whose measures turned and stay turned is still in trouble.
 */
const recoveredFrom = (board: EvidenceBoard, current: readonly Signal[], caller: string, callee: string, callerOnset: number): boolean => {
  if (!Number.isFinite(callerOnset)) return false;
  if (current.some((signal) => signal.service === callee && (signal.kind === 'metric' || signal.kind === 'demand') && signal.substantial && signal.ongoing)) return false;
  const before = callerOnset - SAME_TIME_MS;
  const complaint = (line: LogRecord) => severityOf(line.level) >= severityOf('WARN');
  // The callee's own warnings (a slow query now and then) are its routine; its errors, and its caller's complaints about it, are trouble.
  const aboutCallee = board.logs
    .filter((line) => (line.service === callee && severityOf(line.level) >= severityOf('ERROR')) || (line.service === caller && complaint(line) && namesService(line.message, callee)))
    .map((line) => line.at);
  const failedCalls = current.filter((signal) => signal.service === callee && signal.kind === 'trace' && signal.from === caller).map((signal) => signal.at);
  const troubleEnds = Math.max(...aboutCallee, ...failedCalls);
  if (!Number.isFinite(troubleEnds) || troubleEnds >= before) return false;
  const after = board.logs.filter((line) => line.service === caller && line.at > troubleEnds + SAME_TIME_MS && line.at < before);
  if (after.length < FEWEST_CLEAN_LINES || after.some(complaint)) return false;
  return Math.max(...after.map((line) => line.at)) - Math.min(...after.map((line) => line.at)) >= RECOVERED_STRETCH_MS;
};

const latencyMeasure = /latency|duration|response.?time/i;

/** The callee's own response time was read, and no measure of it turned: it answered in its usual time. */
const answeredInTime = (board: EvidenceBoard, current: readonly Signal[], callee: string): boolean =>
  board.series.some((series) => series.service === callee && latencyMeasure.test(series.name)) &&
  !current.some((signal) => signal.service === callee && signal.kind === 'metric' && latencyMeasure.test(signal.text));
