import { describe, expect, it } from 'vitest';
import { categoryOf } from '../../lib/analyst/cause-category.ts';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import type { Signal } from '../../lib/analyst/signals.ts';
import { at, boardFrom, series } from './board-builder.ts';

const START = '2026-05-01T10:00:00.000Z';
const brief = (alarm: string) => `CloudWatch alarm "${alarm}" changed to ALARM from OK at ${at(START, 90)}.`;

const signal = (overrides: Partial<Signal>): Signal => ({
  service: 'api',
  kind: 'errors',
  at: Date.parse(START),
  strength: 1,
  ongoing: true,
  substantial: true,
  ref: 'E4',
  description: 'something at api',
  text: '',
  ...overrides,
});

describe('the category follows from the mechanism the evidence shows', () => {
  const board = boardFrom({ services: [{ name: 'api', kind: 'ecs' }] });
  const base = { board, root: 'api', symptom: 'api', rootOnset: Date.parse(START), wroteBadData: false, overloads: false };

  it('errors that name no mechanism, at the service that shows the symptom, leave the cause undetermined: no guessed infrastructure fault', () => {
    const plain = signal({ text: 'request 42 failed', description: '"request 42 failed" at api' });
    expect(categoryOf({ ...base, rootSignals: [plain] })).toBe('none');
    expect(categoryOf({ ...base, symptom: 'web', rootSignals: [plain] })).toBe('dependency');
  });

  it('an alarm on a volume filling up is exhaustion of its storage, named in the summary', () => {
    const diagnosis = diagnose(
      boardFrom({
        brief: brief('broker-2-disk-used'),
        services: [{ name: 'broker', kind: 'ec2' }],
        alarms: [{ name: 'broker-2-disk-used', service: 'broker', state: 'ALARM', since: at(START, 90) }],
        metrics: [{ service: 'broker', name: 'disk_used_percent', points: series(START, 4, (hour) => 89 + hour * 0.4) }],
      }),
    );
    expect(diagnosis.draft.incident).toBe(true);
    expect(diagnosis.draft.rootCause.category).toBe('resource-exhaustion');
    expect(diagnosis.draft.rootCause.summary).toMatch(/storage volume at broker is filling/);
  });

  it('an unexplained alarm whose errors name nothing is an incident with the cause undetermined and an escalation', () => {
    const diagnosis = diagnose(
      boardFrom({
        brief: brief('api-5xx'),
        services: [{ name: 'api', kind: 'ecs' }],
        alarms: [{ name: 'api-5xx', service: 'api', state: 'ALARM', since: at(START, 90) }],
        logs: Array.from({ length: 4 }, (_, index) => ({ service: 'api', timestamp: at(START, 88 + index), level: 'ERROR', message: `request ${index} failed` })),
      }),
    );
    expect(diagnosis.draft.incident).toBe(true);
    expect(diagnosis.draft.rootCause.category).toBe('none');
    expect(diagnosis.draft.rootCause.summary).toMatch(/Cause undetermined/);
    expect(diagnosis.draft.remediation.map((step) => step.action)).toContain('escalate');
  });
});
