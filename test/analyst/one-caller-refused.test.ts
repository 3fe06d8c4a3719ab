import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, series, sorted, step } from './board-builder.ts';

const START = '2026-07-02T20:00:00.000Z';
const served = ['52.62.118.9', '54.79.12.150', '13.55.201.77'];

const page = (refusedBy: (index: number) => string, changes: { service: string; timestamp: string; kind: string; summary: string }[] = []) =>
  diagnose(
    boardFrom({
      brief: 'CloudWatch alarm "public-api-4xx-rate" is in ALARM',
      services: [{ name: 'public-api', kind: 'apigateway', dependsOn: ['forecast'] }, { name: 'forecast', kind: 'ecs' }],
      alarms: [{ name: 'public-api-4xx-rate', service: 'public-api', state: 'ALARM', since: at(START, 70) }],
      changes,
      metrics: [
        { service: 'public-api', name: '4xx', points: series(START, 120, step(60, 50, 900)) },
        { service: 'public-api', name: 'Count', points: series(START, 120, () => 3000) },
      ],
      logs: sorted([
        ...Array.from({ length: 30 }, (_, index) => ({ service: 'public-api', timestamp: at(START, index * 4), level: 'INFO', message: `${served[index % 3]} "GET /v2/forecast/point HTTP/1.1" 200 120ms` })),
        ...Array.from({ length: 15 }, (_, index) => ({ service: 'public-api', timestamp: at(START, 61 + index * 4), level: 'INFO', message: `${refusedBy(index)} "GET /v2/stations/STN-${index}/observations HTTP/1.1" 401 3ms` })),
      ]),
    }),
  );

describe('refusals one caller alone gets, while the others are served and nothing that decides who gets in changed, are that caller’s problem', () => {
  it('one partner replaying an expired token: no incident', () => {
    const diagnosis = page(() => '13.238.71.164');
    expect(diagnosis.incident).toBe(false);
    expect(diagnosis.principles).toContain('one-caller-refused');
  });

  it('the same refusals after a key of ours was deleted that morning are ours', () => {
    const diagnosis = page(() => '13.238.71.164', [{ service: 'public-usage-plan', timestamp: at(START, 20), kind: 'other', summary: 'DeleteApiKey partner-2025q4 (quarterly rotation)' }]);
    expect(diagnosis.incident).toBe(true);
  });

  it('refusals spread over many callers are the service refusing its users', () => {
    const diagnosis = page((index) => `203.0.113.${index}`);
    expect(diagnosis.incident).toBe(true);
  });
});
