import { describe, expect, it } from 'vitest';
import { categoryTraced } from '../../lib/analyst/cause-category.ts';
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

  it('a rise on a measure of how full a resource is names exhaustion, whatever else the root shows', () => {
    const rising = signal({ kind: 'trend', text: 'CPUUtilization', description: 'CPUUtilization at api rising steadily from 40 to 97' });
    expect(categoryTraced({ ...base, rootSignals: [rising] }).category).toBe('resource-exhaustion');
    const alarmed = signal({ kind: 'alarm', text: 'api-memory-high', description: 'alarm api-memory-high is in ALARM' });
    expect(categoryTraced({ ...base, rootSignals: [alarmed] }).category).toBe('resource-exhaustion');
    // A rise on a measure that is not how full anything is says nothing about exhaustion.
    const latency = signal({ kind: 'trend', text: 'Latency', description: 'Latency at api rising steadily from 40 to 97' });
    expect(categoryTraced({ ...base, rootSignals: [latency] }).category).toBe('none');
  });

  it('a surge of demand at the root, with nothing else named, is a traffic cause', () => {
    const surge = signal({ kind: 'demand', text: 'RequestCount', description: 'RequestCount at api went up from 200 to 2400' });
    expect(categoryTraced({ ...base, rootSignals: [surge] })).toEqual({ category: 'traffic', principle: 'demand-surge-is-traffic' });
    expect(categoryTraced({ ...base, rootSignals: [{ ...surge, substantial: false }] }).category).toBe('none');
  });

  it('a failing certificate is a certificate cause even after a change of another kind; with no certificate in the evidence the change decides', () => {
    const deploy = { ref: 'E3', service: 'api', timestamp: START, at: Date.parse(START), kind: 'deploy', summary: 'v42 rolled out' };
    const expired = signal({ text: 'x509: certificate has expired or is not yet valid', description: 'x509 errors at api' });
    expect(categoryTraced({ ...base, change: deploy, rootSignals: [expired] })).toEqual({ category: 'certificate', principle: 'certificate-over-change' });
    const plain = signal({ text: 'request 42 failed', description: '"request 42 failed" at api' });
    expect(categoryTraced({ ...base, change: deploy, rootSignals: [plain] })).toEqual({ category: 'deploy', principle: 'category-from-change' });
  });

  it('infrastructure as code that modified a resource in place wrote its settings: a configuration change, while the platform’s own event stays infrastructure', () => {
    const plain = signal({ text: 'request 42 failed', description: '"request 42 failed" at api' });
    const change = (summary: string, details?: Record<string, unknown>) => ({ ref: 'E3', service: 'api', timestamp: START, at: Date.parse(START), kind: 'infrastructure', summary, ...(details ? { details } : {}) });
    const category = (summary: string, details?: Record<string, unknown>) => categoryTraced({ ...base, change: change(summary, details), rootSignals: [plain] }).category;
    expect(category('terraform apply (workspace queues-prod): 3 queue policies updated in-place')).toBe('config');
    expect(category('CloudFormation stack queues-prod UPDATE_COMPLETE', { resourceChanges: [{ type: 'AWS::SQS::QueuePolicy', action: 'Modify' }] })).toBe('config');
    expect(category('CloudFormation stack queues-prod UPDATE_COMPLETE', { resourceChanges: [{ type: 'AWS::EC2::NatGateway', action: 'Add' }] })).toBe('infrastructure');
    expect(category('EC2 instance i-0abc scheduled for retirement: underlying hardware degraded, instance updated')).toBe('infrastructure');
    expect(category('CloudTrail UpdateUsagePlan usagePlanId=u7x2kq (terraform apply via Atlantis, PR #2291)')).toBe('config');
    expect(category('RDS maintenance: UpdateEngineVersion applied by AWS during the window')).toBe('infrastructure');
  });

  it('errors that name no mechanism, at the service that shows the symptom, leave the cause undetermined: no guessed infrastructure fault', () => {
    const plain = signal({ text: 'request 42 failed', description: '"request 42 failed" at api' });
    expect(categoryTraced({ ...base, rootSignals: [plain] }).category).toBe('none');
    expect(categoryTraced({ ...base, symptom: 'web', rootSignals: [plain] }).category).toBe('dependency');
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
