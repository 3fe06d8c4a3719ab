import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, linesFrom, pointsBetween, sorted } from './board-builder.ts';

/** Two days of five-minute readings; the alarm fires at minute 2870. */
const START = '2026-08-10T15:00:00.000Z';
const FIRED = 2870;
const lines = linesFrom(START);

/**
 * A webhook receiver that rejects a few malformed payloads a day, each counted in its Errors. Its
 * errors alarm was redefined (`redefinedAt`, minutes from the start) and fires at minute 2870 on
 * `now` errors in five minutes. Before the redefinition it counted 3 in five minutes once, at minute
 * 300. `rejectedLines`: the ERROR lines it logs just before the alarm fires.
 */
const redefined = ({ now = 3, redefinedAt = 1600 as number | null, rejectedLines = 3 } = {}) =>
  boardFrom({
    brief: 'CloudWatch alarm "webhook-receiver-errors" is in ALARM',
    services: [{ name: 'webhook-receiver', kind: 'lambda' }],
    alarms: [{ name: 'webhook-receiver-errors', service: 'webhook-receiver', state: 'ALARM', since: at(START, FIRED) }],
    changes:
      redefinedAt === null
        ? []
        : [
            {
              service: 'webhook-receiver',
              timestamp: at(START, redefinedAt),
              kind: 'config',
              summary: 'CloudTrail: PutMetricAlarm webhook-receiver-errors',
              details: { eventName: 'PutMetricAlarm', requestParameters: { alarmName: 'webhook-receiver-errors', threshold: 3, evaluationPeriods: 1 } },
            },
          ],
    metrics: [
      {
        service: 'webhook-receiver',
        name: 'Errors',
        stat: 'Sum',
        periodSeconds: 300,
        points: pointsBetween(START, 0, 2880, 5, (minute) => (minute === 300 ? 3 : minute === FIRED - 5 ? now : minute % 240 === 0 ? 1 : 0)),
      },
      { service: 'webhook-receiver', name: 'Invocations', stat: 'Sum', periodSeconds: 300, points: pointsBetween(START, 0, 2880, 5, () => 1300) },
    ],
    logs: sorted([
      ...lines('webhook-receiver', 2700, 5, 30, 'INFO', (index) => `webhook accepted partner=selwyn-bank event_id=evt_${index} status=202`),
      ...lines('webhook-receiver', FIRED - 4, 0.3, rejectedLines, 'ERROR', (index) => `Invoke Error {"errorType":"WebhookRejected","errorMessage":"[400] payload failed validation (evt_${index})"}`),
    ]),
  });

describe('an alarm redefined shortly before it fired', () => {
  it('is no incident when what it watches is no worse than it already was before the redefinition, and its error lines are what it counts', () => {
    const diagnosis = diagnose(redefined());
    expect(diagnosis.draft.incident).toBe(false);
    expect(diagnosis.principles).toContain('alarm-redefined');
    expect(diagnosis.draft.rootCause.summary).toContain('the alarm was redefined at');
  });

  it('is an incident when what it watches is worse now than on any reading before the redefinition', () => {
    expect(diagnose(redefined({ now: 12, rejectedLines: 12 })).draft.incident).toBe(true);
  });

  it('is an incident when nothing redefined it, or what it watches reached that level only since the redefinition', () => {
    expect(diagnose(redefined({ redefinedAt: null })).principles).not.toContain('alarm-redefined');
    expect(diagnose(redefined({ redefinedAt: 200 })).principles).not.toContain('alarm-redefined');
  });

  it('is an incident when its service logs more errors than the count it watches', () => {
    expect(diagnose(redefined({ rejectedLines: 20 })).draft.incident).toBe(true);
  });
});
