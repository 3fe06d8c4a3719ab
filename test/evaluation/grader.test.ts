import { describe, expect, it } from 'vitest';
import type { Finding } from '../../lib/domain/finding.ts';
import type { Truth } from '../../lib/domain/scenario.ts';
import { grade } from '../../lib/evaluation/grader.ts';

const truth: Truth = {
  incident: true,
  rootCause: { service: 'inventory-api', category: ['deploy', 'config'], keywords: [['migration'], ['v1.8.3', 'deploy']] },
  remediation: [
    { action: 'rollback', target: 'inventory-api' },
    { action: 'restart', target: 'order-service' },
  ],
  distractors: ['payments-api'],
};

const finding = (overrides: Partial<Finding> = {}): Finding => ({
  incident: true,
  rootCause: { service: 'inventory-api', category: 'deploy', summary: 'Migration 0042 failed after the v1.8.3 deploy' },
  confidence: 0.8,
  evidence: [{ ref: 'E1', summary: 'logs' }],
  remediation: [
    { action: 'rollback', target: 'inventory-api', detail: '', requiresApproval: true },
    { action: 'restart', target: 'order-service', detail: '', requiresApproval: true },
  ],
  report: '# report',
  ...overrides,
});

describe('grader', () => {
  it('gives full marks to a finding that matches every part', () => {
    expect(grade(truth, finding())).toMatchObject({ score: 1, success: true, parts: { service: 0.4, category: 0.2, keywords: 0.2, remediation: 0.2 } });
  });

  it('gives 0.4 for the service, compared case-insensitively', () => {
    const graded = grade(truth, finding({ rootCause: { service: 'Inventory-API', category: 'network', summary: 'migration v1.8.3' } }));
    expect(graded.parts).toMatchObject({ service: 0.4, category: 0 });
  });

  it('accepts any category in the accepted list', () => {
    expect(grade(truth, finding({ rootCause: { service: 'inventory-api', category: 'config', summary: 'migration v1.8.3' } })).parts.category).toBe(0.2);
  });

  it('needs every keyword group, any alternative, in the summary or the report', () => {
    expect(grade(truth, finding({ rootCause: { service: 'inventory-api', category: 'deploy', summary: 'a bad DEPLOY' }, report: 'the MIGRATION broke' })).parts.keywords).toBe(0.2);
    expect(grade(truth, finding({ rootCause: { service: 'inventory-api', category: 'deploy', summary: 'a bad deploy' } })).parts.keywords).toBe(0);
  });

  it('gives keyword credit when the truth lists no groups', () => {
    const noKeywords = { ...truth, rootCause: { service: 'inventory-api', category: 'deploy' as const } };
    expect(grade(noKeywords, finding({ rootCause: { service: 'inventory-api', category: 'deploy', summary: '' } })).parts.keywords).toBe(0.2);
  });

  it('counts remediation steps matched by action and target in order', () => {
    const reversed = finding({ remediation: [...finding().remediation].reverse() });
    expect(grade(truth, reversed).parts.remediation).toBe(0.1);
    const wrongTarget = finding({ remediation: [{ action: 'rollback', target: 'order-service', detail: '', requiresApproval: true }] });
    expect(grade(truth, wrongTarget).parts.remediation).toBe(0);
    const extraFirst = finding({ remediation: [{ action: 'escalate', target: 'on-call', detail: '', requiresApproval: false }, ...finding().remediation] });
    expect(grade(truth, extraFirst).parts.remediation).toBe(0.2);
  });

  it('gives full remediation credit when the truth lists none', () => {
    expect(grade({ ...truth, remediation: undefined }, finding({ remediation: [] })).parts.remediation).toBe(0.2);
  });

  it('scores zero for service and category when a distractor is blamed', () => {
    const blamed = grade(truth, finding({ rootCause: { service: 'payments-api', category: 'deploy', summary: 'migration v1.8.3' } }));
    expect(blamed.parts).toMatchObject({ service: 0, category: 0 });
    expect(blamed.notes.join(' ')).toMatch(/distractor/);
  });

  it('counts success from a score of 0.8', () => {
    const missingSecondStep = finding({ remediation: [finding().remediation[0]!] });
    expect(grade(truth, missingSecondStep)).toMatchObject({ score: 0.9, success: true });
    expect(grade(truth, finding({ rootCause: { service: 'inventory-api', category: 'network', summary: 'nothing' }, remediation: [] }))).toMatchObject({ score: 0.4, success: false });
  });

  it('scores a no-incident control 1 only for "no incident" with no action but none or escalate', () => {
    const healthy: Truth = { incident: false, distractors: ['search-api'] };
    const quiet = finding({ incident: false, remediation: [{ action: 'escalate', target: 'on-call', detail: '', requiresApproval: false }] });
    expect(grade(healthy, quiet)).toMatchObject({ score: 1, success: true });
    expect(grade(healthy, finding({ incident: false }))).toMatchObject({ score: 0 });
    expect(grade(healthy, finding())).toMatchObject({ score: 0 });
  });

  it('scores zero when a real incident is called healthy', () => {
    expect(grade(truth, finding({ incident: false })).score).toBe(0);
  });
});
