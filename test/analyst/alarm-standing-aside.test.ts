import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, linesFrom, series, sorted } from './board-builder.ts';

const START = '2026-04-14T12:00:00.000Z';
const lines = linesFrom(START);

/** A question about a release of `search`, whose evidence is quiet; the edge in front has had an alarm of its own in ALARM since `alarmSince`. */
const asked = (brief: string, alarmSince: string, alarmAt = 'edge') =>
  diagnose(
    boardFrom({
      brief,
      services: [
        { name: 'edge', kind: 'cloudfront', dependsOn: ['web'] },
        { name: 'web', kind: 'ecs', dependsOn: ['search'] },
        { name: 'search', kind: 'ecs' },
      ],
      alarms: [
        { name: `${alarmAt}-4xx-rate`, service: alarmAt, state: 'ALARM', since: alarmSince },
        { name: 'search-p99', service: 'search', state: 'OK', since: at(START, -600) },
      ],
      changes: [{ service: 'search', timestamp: at(START, 65), kind: 'deploy', summary: 'search v3.8.0 rolled out' }],
      metrics: [
        { service: 'search', name: 'TargetResponseTime', points: series(START, 120, (minute) => 0.2 + (minute % 4) / 100) },
        { service: 'web', name: 'HTTPCode_Target_5XX_Count', points: series(START, 120, () => 0) },
      ],
      logs: sorted([...lines('search', 0, 6, 20, 'INFO', (index) => `GET /v3/search?q=${index} 200`), ...lines('web', 1, 6, 20, 'INFO', (index) => `GET /c/${index} 200`)]),
    }),
  ).draft;

const question = 'A teammate asks: "Did the 13:05 deploy of search break anything? Should I roll it back?"';

describe('another alarm already in ALARM before any of the evidence begins', () => {
  it('is a condition standing aside from what was asked about, when nothing of substance shows at its service', () => {
    const draft = asked(question, at(START, -180));
    expect(draft.incident).toBe(false);
  });

  it('is still unexplained when it fired inside the evidence', () => {
    expect(asked(question, at(START, 40)).incident).toBe(true);
  });

  it('is not aside when it is at the service asked about', () => {
    expect(asked(question, at(START, -180), 'search').incident).toBe(true);
  });

  it('is not aside from a sweep, which is about every service', () => {
    expect(asked('Scheduled health sweep: no alert fired. Look at alarms in ALARM.', at(START, -180)).incident).toBe(true);
  });
});
