import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { boardFrom, series, type SyntheticEvidence } from './board-builder.ts';

const START = '2026-05-19T04:00:00.000Z';

/** A scheduled sweep over an API whose CPU climbs steadily through the morning, from 17% to about 31%. */
const sweep = (requests: (minute: number) => number): SyntheticEvidence => ({
  brief: 'Scheduled health sweep: look for anything quietly going wrong.',
  services: [{ name: 'campaign-api', kind: 'ecs' }],
  metrics: [
    { service: 'campaign-api', name: 'CPUUtilization', unit: 'Percent', points: series(START, 120, (minute) => 17 + minute * 0.12 + (minute % 3) * 0.2) },
    { service: 'campaign-api', name: 'RequestCount', points: series(START, 120, requests) },
  ],
});

describe('a processor busier with more work is not running out', () => {
  it('CPU that climbs as the requests do is that demand: no exhaustion, no incident', () => {
    const diagnosis = diagnose(boardFrom(sweep((minute) => 246 + minute * 1.5)));
    expect(diagnosis.incident).toBe(false);
  });

  it('CPU that climbs while the requests stay flat is heading for its limit', () => {
    const diagnosis = diagnose(boardFrom(sweep(() => 246)));
    expect(diagnosis.signals.some((signal) => signal.service === 'campaign-api' && /exhausted in about/.test(signal.description))).toBe(true);
  });
});
