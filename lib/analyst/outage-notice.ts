import type { EvidenceBoard } from './evidence-board.ts';
import { CLOSE_CHANGE_MS } from './explaining-change.ts';

/**
 * A provider that posts, in its own words, that its service is impaired (a status page's
 * "investigating elevated errors", a component in "degraded_performance") has a fault of its own:
 * what a caller changed just before does not explain it. Status pages post after the impact
 * begins, so the notice may come a while after the trouble's first sign.
 */

/** The state a status notice posts, or what it reports rising. */
const outageNotice = /\[(investigating|identified)\]|\b(degraded|partial.?outage|major.?outage|service disruption|(elevated|increased) (errors?|latency|error rates?))/i;

/** Whether `service` posted a notice of its own impairment within a while of `onset`, at whatever level its feed logs it. */
export const reportsOwnOutage = (board: EvidenceBoard, service: string, onset: number): boolean =>
  board.logs.some((line) => line.service === service && outageNotice.test(line.message) && Math.abs(line.at - onset) <= CLOSE_CHANGE_MS);
