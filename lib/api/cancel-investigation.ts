import { StepConflictError } from '../store/port.ts';
import { investigationEnded } from '../triggers/admit.ts';
import type { ApiPorts } from './ports.ts';

export type CancelOutcome = { outcome: 'cancelled' } | { outcome: 'not-found' } | { outcome: 'already-ended'; status: string };

const MAX_COMMIT_ATTEMPTS = 5;

/**
 * Stops the investigation's execution and marks it cancelled. The finding written so far stays;
 * the cancel commit adds an event, so a step still in flight loses its commit instead of
 * overwriting the status.
 */
export const cancelInvestigation = async (ports: ApiPorts, id: string): Promise<CancelOutcome> => {
  const { store, ledger, starter } = ports;
  const admission = await ledger.admission(id);
  if (admission?.state === 'queued' && (await ledger.dequeue(id))) {
    await ledger.setState(id, 'cancelled');
    ports.log?.(`investigation ${id} cancelled while queued`);
    return { outcome: 'cancelled' };
  }
  const first = await store.get(id);
  if (!first && !admission) return { outcome: 'not-found' };
  if (first && first.status !== 'running') return { outcome: 'already-ended', status: first.status };
  if (!first && admission?.state === 'cancelled') return { outcome: 'already-ended', status: 'cancelled' };
  await starter.stop(id);
  for (let attempt = 0; attempt < MAX_COMMIT_ATTEMPTS; attempt++) {
    const head = await store.get(id);
    if (!head) break;
    if (head.status !== 'running') return { outcome: 'already-ended', status: head.status };
    const at = (ports.clock ?? (() => new Date()))().toISOString();
    try {
      await store.commitStep(id, {
        step: 'cancel',
        expectedEventCount: head.eventCount,
        events: [{ type: 'error', payload: { error: 'Cancelled', message: 'cancelled through the API; the finding so far is kept' } }],
        head: { ...head, status: 'cancelled', eventCount: head.eventCount + 1, updatedAt: at },
        outcome: { investigationId: id, status: 'cancelled' },
      });
      break;
    } catch (error) {
      if (!(error instanceof StepConflictError)) throw error;
    }
  }
  if (admission) await ledger.setState(id, 'cancelled');
  ports.log?.(`investigation ${id} cancelled`);
  await investigationEnded(ports, id);
  return { outcome: 'cancelled' };
};
