import type { ToolSourceRef } from '../domain/investigation.ts';
import type { Trigger } from '../domain/trigger.ts';
import { describeTrigger } from './brief.ts';
import { identifyTrigger, investigationIdFor } from './identity.ts';
import type { TriggerLedger } from './ledger.ts';
import type { InvestigationStarter } from './starter.ts';

export interface AdmissionSettings {
  /** A trigger joins its group's investigation when the group's last trigger is at most this old. */
  groupWindowMs: number;
  /** Investigations running at once; the rest wait in the queue. */
  maxRunning: number;
  /** Where new investigations' tools read from (a recorded environment locally). */
  toolSource?: ToolSourceRef;
}

export interface AdmissionPorts {
  ledger: TriggerLedger;
  starter: InvestigationStarter;
  settings: AdmissionSettings;
  clock?: () => Date;
  /** One line per investigation state change. */
  log?: (line: string) => void;
}

export type AdmissionOutcome = 'started' | 'queued' | 'joined' | 'duplicate';

export interface Admitted {
  investigationId: string;
  outcome: AdmissionOutcome;
}

export const DEFAULT_GROUP_WINDOW_MS = 30 * 60_000;
export const DEFAULT_MAX_RUNNING = 10;

/**
 * The single door every trigger goes through: a delivery seen before starts nothing, a trigger
 * whose group is open joins its investigation, anything else is queued and started as soon as a
 * running slot is free. `deliveryKeys` are the transport's own ids (a webhook delivery id).
 */
export const admitTrigger = async (ports: AdmissionPorts, trigger: Trigger, deliveryKeys: readonly string[] = []): Promise<Admitted> => {
  const { ledger, settings } = ports;
  const at = (ports.clock ?? (() => new Date()))();
  const receivedAt = at.toISOString();
  const identity = identifyTrigger(trigger);
  const candidateId = investigationIdFor(identity);
  const keys = [...deliveryKeys, ...(identity.occurrenceKey === undefined ? [] : [identity.occurrenceKey])];
  const claimed: string[] = [];
  for (const key of keys) {
    const claim = await ledger.claim(key, candidateId);
    if (!claim.claimed) {
      await Promise.all(claimed.map((earlier) => ledger.reassign(earlier, claim.investigationId)));
      return { investigationId: claim.investigationId, outcome: 'duplicate' };
    }
    claimed.push(key);
  }
  if (identity.groupKey !== undefined) {
    const group = await ledger.joinGroup(identity.groupKey, candidateId, at, settings.groupWindowMs);
    if (group.joined) {
      const brief = describeTrigger(trigger);
      await ledger.attach(group.investigationId, {
        receivedAt,
        summary: brief.summary,
        ...(brief.occurredAt === undefined ? {} : { occurredAt: brief.occurredAt }),
        ...(identity.occurrenceKey === undefined ? {} : { occurrenceKey: identity.occurrenceKey }),
      });
      await Promise.all(claimed.map((key) => ledger.reassign(key, group.investigationId)));
      ports.log?.(`investigation ${group.investigationId} joined by ${identity.label}`);
      return { investigationId: group.investigationId, outcome: 'joined' };
    }
  }
  await ledger.admit({
    investigationId: candidateId,
    receivedAt,
    input: { trigger, investigationId: candidateId, ...(settings.toolSource ? { toolSource: settings.toolSource } : {}) },
    ...(identity.service === undefined ? {} : { service: identity.service }),
    ...(identity.groupKey === undefined ? {} : { groupKey: identity.groupKey }),
  });
  ports.log?.(`investigation ${candidateId} queued: ${identity.label}`);
  await startQueued(ports);
  // A concurrent delivery's drain may be starting this one: holding a slot is as good as started.
  const admission = await ledger.admission(candidateId);
  return { investigationId: candidateId, outcome: admission?.state === 'started' || admission?.holdsSlot ? 'started' : 'queued' };
};

/** How far down the queue one drain looks past investigations another caller is already starting. */
const QUEUE_LOOKAHEAD = 25;

/** Starts queued investigations, oldest first, while running slots are free; returns the ids it started. */
export const startQueued = async (ports: AdmissionPorts): Promise<string[]> => {
  const { ledger, settings } = ports;
  const started: string[] = [];
  for (;;) {
    const next = await claimNextQueued(ports.ledger, settings.maxRunning, await ledger.queued(QUEUE_LOOKAHEAD));
    if (next === undefined) return started;
    await startClaimed(ports, next);
    started.push(next);
  }
};

/** The oldest queued investigation this caller got a slot for and took off the queue. */
const claimNextQueued = async (ledger: TriggerLedger, cap: number, queued: readonly string[]): Promise<string | undefined> => {
  for (const candidate of queued) {
    const slot = await ledger.acquireSlot(candidate, cap);
    if (slot === 'full') return undefined;
    if (slot === 'held') continue;
    if (await ledger.dequeue(candidate)) return candidate;
    await ledger.releaseSlot(candidate);
  }
  return undefined;
};

const startClaimed = async (ports: AdmissionPorts, investigationId: string): Promise<void> => {
  const { ledger, starter } = ports;
  const admission = await ledger.admission(investigationId);
  if (!admission) throw new Error(`queued investigation ${investigationId} has no admission record`);
  try {
    await ledger.setState(investigationId, 'started');
    await starter.start(investigationId, admission.input);
    ports.log?.(`investigation ${investigationId} started`);
  } catch (error) {
    // Nothing is dropped: it goes back in the queue for the next drain.
    await ledger.setState(investigationId, 'queued');
    await ledger.releaseSlot(investigationId);
    await ledger.enqueue(investigationId);
    throw error;
  }
};

/** An investigation's execution ended (any way): its slot goes to the next queued one. */
export const investigationEnded = async (ports: AdmissionPorts, investigationId: string): Promise<string[]> => {
  await ports.ledger.releaseSlot(investigationId);
  return startQueued(ports);
};
