import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, series } from './board-builder.ts';

const START = '2026-05-01T10:00:00.000Z';
const services = [{ name: 'api', kind: 'ecs', dependsOn: ['db'] }, { name: 'db', kind: 'rds' }];
const quiet = [{ service: 'api', name: 'CPUUtilization', points: series(START, 120, () => 25) }];
const firing = (since: string) => [{ name: 'api-latency', service: 'api', state: 'ALARM' as const, since, reason: 'Threshold Crossed' }];

describe('health verdict', () => {
  it('an alarm in ALARM that nothing explains makes an incident, cause undetermined, with an escalation', () => {
    const diagnosis = diagnose(boardFrom({ services, alarms: firing(at(START, 100)), metrics: quiet }));
    expect(diagnosis.draft.incident).toBe(true);
    expect(diagnosis.draft.rootCause.service).toBe('api');
    expect(diagnosis.draft.rootCause.summary).toMatch(/Cause undetermined/);
    expect(diagnosis.draft.rootCause.summary).toMatch(/Checked:/);
    expect(diagnosis.draft.remediation.map((step) => step.action)).toContain('escalate');
  });

  it('a load test announced before the alarm explains it', () => {
    const diagnosis = diagnose(
      boardFrom({
        services,
        alarms: firing(at(START, 100)),
        metrics: quiet,
        changes: [{ service: 'api', timestamp: at(START, 90), kind: 'other', summary: 'Load test against api 11:30-12:15, 3x peak' }],
      }),
    );
    expect(diagnosis.draft.incident).toBe(false);
    expect(diagnosis.draft.rootCause.summary).toMatch(/api-latency is explained/);
  });

  it('an alarm of a resource that was retired is explained, whatever its state', () => {
    const diagnosis = diagnose(
      boardFrom({
        services,
        alarms: [{ name: 'reports-cpu', service: 'reports', state: 'ALARM', since: at(START, 10) }],
        metrics: quiet,
        changes: [{ service: 'reports', timestamp: at(START, -600), kind: 'infrastructure', summary: 'reports cluster decommissioned' }],
      }),
    );
    expect(diagnosis.draft.incident).toBe(false);
  });

  it('an alarm standing since long before the evidence, with nothing new, is not a new incident', () => {
    const diagnosis = diagnose(boardFrom({ services, alarms: firing('2026-04-20T10:00:00.000Z'), metrics: quiet }));
    expect(diagnosis.draft.incident).toBe(false);
  });

  it('a standing alarm whose service logs errors is an incident', () => {
    const diagnosis = diagnose(
      boardFrom({
        services,
        alarms: firing('2026-04-20T10:00:00.000Z'),
        metrics: quiet,
        logs: [{ service: 'api', timestamp: at(START, 110), level: 'ERROR', message: 'x509: certificate has expired or is not yet valid' }],
      }),
    );
    expect(diagnosis.draft.incident).toBe(true);
    expect(diagnosis.draft.rootCause.category).toBe('certificate');
    expect(diagnosis.draft.rootCause.summary).toMatch(/expired TLS certificate/);
  });

  it('an alarm back to OK with nothing failing is no incident', () => {
    const diagnosis = diagnose(
      boardFrom({ brief: 'CloudWatch alarm "api-latency" is in ALARM', services, alarms: [{ name: 'api-latency', service: 'api', state: 'OK', since: at(START, 110) }], metrics: quiet }),
    );
    expect(diagnosis.draft.incident).toBe(false);
    expect(diagnosis.draft.rootCause.summary).toMatch(/back to OK/);
  });
});

describe('report wording', () => {
  it('a third party whose calls fail is named as such, not listed among the failed services', () => {
    const diagnosis = diagnose(
      boardFrom({
        brief: 'CloudWatch alarm "pay-errors" is in ALARM',
        services: [{ name: 'pay', kind: 'ecs', dependsOn: ['psp'] }, { name: 'psp', kind: 'external' }, { name: 'web', kind: 'ecs', dependsOn: ['pay'] }],
        alarms: [{ name: 'pay-errors', service: 'pay', state: 'ALARM', since: at(START, 95) }],
        changes: [{ service: 'pay', timestamp: at(START, 88), kind: 'deploy', summary: 'pay v2 rolled out' }],
        logs: [
          ...Array.from({ length: 6 }, (_, index) => ({ service: 'pay', timestamp: at(START, 90 + index * 4), level: 'ERROR', message: `NullPointerException in PaymentMapper.map (order ${index})` })),
          ...Array.from({ length: 5 }, (_, index) => ({ service: 'web', timestamp: at(START, 92 + index * 4), level: 'ERROR', message: 'upstream pay returned 500' })),
        ],
      }),
    );
    expect(diagnosis.draft.rootCause.service).toBe('pay');
    expect(diagnosis.draft.rootCause.summary).not.toMatch(/psp \(from/);
    expect(diagnosis.draft.impact).toMatch(/web/);
    expect(diagnosis.draft.impact.match(/web/g)).toHaveLength(1);
  });
});
