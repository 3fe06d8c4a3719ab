import { latestBreakingChangeBefore } from './explaining-change.ts';
import type { Change, EvidenceBoard } from './evidence-board.ts';
import { labelsAt } from './mechanism.ts';
import { callersOf, kindOf } from './service-map.ts';
import { iso, type Signal } from './signals.ts';
import { changeText } from './change-text.ts';

/**
 * A container service's tasks are placed on its cluster's instances; each instance holds as many
 * tasks as its memory and CPU fit. A change to what the instances are (a launch template version
 * with another instance type, a node group's instance types) replaces them, at the next refresh or
 * scale-out, with hosts that may hold fewer tasks: the cluster reaches its instance count with room
 * for fewer tasks than before, and tasks it used to place find no host. That change waited for the
 * demand that needs the room, so it counts from up to a week before.
 */
export interface ResizedHosts {
  hosts: string;
  change: Change;
  /** The instance type the change names, when it does. */
  instanceType?: string;
  /** The services whose tasks found no host. */
  unplaced: string[];
}

/** What a change to what hosts are names: their type, or the template they are launched from. */
const hostDefinition = /instance.?types?|LaunchTemplateData|launch.?template|InstanceRequirements/i;
const instanceTypeWritten = /"?instance.?type"?\W{1,4}"?([a-z][a-z0-9-]*\d[a-z0-9-]*\.[a-z0-9]+)/i;
/** A host definition waits for the next scale-out that needs the room: the next busy day, seldom more than a week. */
const RESIZE_REACH_MS = 7 * 24 * 60 * 60_000;

export const resizedHostsOf = (board: EvidenceBoard, hosts: string, current: readonly Signal[], failingSince: number): ResizedHosts | undefined => {
  if (kindOf(board, hosts) !== 'ec2' || !Number.isFinite(failingSince)) return undefined;
  const unplaced = callersOf(board, hosts).filter((client) => labelsAt(current.filter((signal) => signal.service === client)).includes('placement'));
  if (unplaced.length === 0) return undefined;
  const redefining = (candidate: Change) => candidate.service === hosts && hostDefinition.test(changeText(candidate));
  // The change that says which instance type comes first; one that only points at a new template version says less.
  const change =
    latestBreakingChangeBefore(board.changes, failingSince, RESIZE_REACH_MS, (candidate) => redefining(candidate) && instanceTypeWritten.test(changeText(candidate))) ??
    latestBreakingChangeBefore(board.changes, failingSince, RESIZE_REACH_MS, redefining);
  if (!change) return undefined;
  const instanceType = instanceTypeWritten.exec(changeText(change))?.[1];
  return { hosts, change, ...(instanceType ? { instanceType } : {}), unplaced };
};

/** The mechanism, in plain words. */
export const resizedHostsWords = ({ hosts, change, instanceType, unplaced }: ResizedHosts): string =>
  `The hosts were changed: ${change.kind} change at ${iso(change.at)} ("${change.summary}")${instanceType ? ` launches ${hosts} as ${instanceType}` : ` redefined what ${hosts} launches`}; ` +
  `each host fits fewer tasks than before, so at its usual instance count the cluster has less room, and ${unplaced.join(', ')} cannot place the tasks it needs (no host with the memory or CPU left).`;
