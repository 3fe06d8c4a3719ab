import type { Trigger } from '../domain/trigger.ts';
import type { Toolbox } from '../tools/toolbox.ts';

export interface Verification {
  alarm?: string;
  state?: string;
  recovered: boolean | null;
  summary: string;
}

const alarmNameOf = (trigger: Trigger | undefined): string | undefined => (trigger && 'cloudwatchAlarm' in trigger ? trigger.cloudwatchAlarm.detail.alarmName : undefined);

/**
 * After an action: reads the alarm that opened the investigation again and says whether it is back
 * to OK. A recorded (not executed) action cannot have changed anything, and says so.
 */
export const verifyRecovery = async (toolbox: Toolbox, trigger: Trigger | undefined, executed: boolean, now: Date): Promise<Verification> => {
  if (!executed) return { recovered: null, summary: 'the action was recorded, not executed: nothing changed, so there is no recovery to verify' };
  const alarm = alarmNameOf(trigger);
  if (!alarm) return { recovered: null, summary: 'no alarm opened this investigation: there is no alarm to re-read' };
  const outcome = await toolbox.execute({ id: 'verify', name: 'list_alarms', arguments: {} }, { now });
  if (!outcome.ok) return { alarm, recovered: null, summary: `re-reading alarm ${alarm} failed: ${outcome.error}` };
  const data = outcome.data as { available: boolean; alarms?: { name: string; state: string }[] };
  const found = data.alarms?.find((candidate) => candidate.name === alarm);
  if (!found) return { alarm, recovered: null, summary: `alarm ${alarm} was not found when re-read` };
  const recovered = found.state === 'OK';
  return {
    alarm,
    state: found.state,
    recovered,
    summary: recovered ? `alarm ${alarm} is OK again after the action: the service recovered` : `alarm ${alarm} is still ${found.state} after the action: the service has not recovered yet`,
  };
};
