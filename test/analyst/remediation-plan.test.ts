import { describe, expect, it } from 'vitest';
import { remediationTraced, runbookActions, withRunbookStep } from '../../lib/analyst/remediation-plan.ts';

const actions = (steps: { action: string; target: string }[]) => steps.map((step) => `${step.action} ${step.target}`);

describe('remediation plan', () => {
  it('a held resource is released by restarting its holder', () => {
    expect(actions(remediationTraced({ category: 'resource-exhaustion', root: 'batch', mechanism: 'connections', alreadyRestarting: false }).steps)).toEqual(['restart batch', 'apply-fix batch']);
  });

  it('a consumed resource (storage) or a holder the platform already restarts needs headroom, not a restart', () => {
    expect(actions(remediationTraced({ category: 'resource-exhaustion', root: 'db', mechanism: 'disk', alreadyRestarting: false }).steps)).toEqual(['scale db', 'apply-fix db']);
    expect(actions(remediationTraced({ category: 'resource-exhaustion', root: 'svc', mechanism: 'memory', alreadyRestarting: true }).steps)).toEqual(['scale svc', 'apply-fix svc']);
  });

  it('bad data is stopped and repaired where it is produced, or the release that writes it is rolled back', () => {
    expect(actions(remediationTraced({ category: 'data', root: 'producer', alreadyRestarting: false }).steps)).toEqual(['apply-fix producer']);
    const release = { ref: 'E3', service: 'producer', timestamp: '2026-05-01T10:00:00Z', at: 0, kind: 'deploy', summary: 'v2 rolled out' };
    expect(actions(remediationTraced({ category: 'data', root: 'producer', alreadyRestarting: false, change: release }).steps)).toEqual(['rollback producer', 'apply-fix producer']);
  });

  it('a client that takes a shared capacity is slowed down, not given more, then changed so its next run does not do it again', () => {
    expect(actions(remediationTraced({ category: 'traffic', root: 'batch', alreadyRestarting: false, overloads: 'login-fn' }).steps)).toEqual(['limit-traffic batch', 'apply-fix batch']);
    expect(actions(remediationTraced({ category: 'traffic', root: 'api', alreadyRestarting: false }).steps)).toEqual(['scale api']);
  });

  it('a client whose load ran a shared resource out is throttled at once, the release that launched it rolled back, and its work changed', () => {
    const release = { ref: 'E3', service: 'crawler', timestamp: '2026-05-01T10:00:00Z', at: 0, kind: 'deploy', summary: 'crawler 0.1.0 first production rollout' };
    const exhausted = { category: 'resource-exhaustion' as const, root: 'crawler', mechanism: 'ports', alreadyRestarting: false, overloads: 'egress-nat' };
    expect(actions(remediationTraced({ ...exhausted, change: release }).steps)).toEqual(['limit-traffic crawler', 'rollback crawler', 'apply-fix crawler']);
    expect(actions(remediationTraced(exhausted).steps)).toEqual(['limit-traffic crawler', 'apply-fix crawler']);
    // Locks are released by ending the session that holds them.
    expect(actions(remediationTraced({ ...exhausted, mechanism: 'locks' }).steps)[0]).toBe('apply-fix crawler');
  });

  it('a release whose work swamps a shared resource is rolled back, then its work changed before it is released again; a release alone is rolled back', () => {
    expect(actions(remediationTraced({ category: 'deploy', root: 'report-fn', alreadyRestarting: false, overloads: 'reports-db' }).steps)).toEqual(['rollback report-fn', 'apply-fix report-fn']);
    expect(actions(remediationTraced({ category: 'deploy', root: 'api', alreadyRestarting: false }).steps)).toEqual(['rollback api']);
  });

  it('a rate-limited provider is routed around when the caller has another, else the calls are slowed', () => {
    const base = { category: 'external' as const, root: 'sms-a', mechanism: 'throttling', callerOfRoot: 'sender', alreadyRestarting: false };
    expect(actions(remediationTraced({ ...base, alternativeProvider: true }).steps)).toEqual(['failover sender', 'escalate sms-a']);
    expect(actions(remediationTraced({ ...base, alternativeProvider: false }).steps)).toEqual(['limit-traffic sender', 'escalate sms-a']);
  });

  it('refused credentials with no change to undo are fixed by a restart that reads the current secret; with a change, the change is reverted', () => {
    expect(remediationTraced({ category: 'permissions', root: 'billing', mechanism: 'credentials', alreadyRestarting: false })).toEqual({
      steps: [expect.objectContaining({ action: 'restart', target: 'billing' })],
      principles: ['remedy-restart-for-credentials'],
    });
    const rotation = { ref: 'E3', service: 'billing', timestamp: '2026-05-01T10:00:00Z', at: 0, kind: 'iam', summary: 'RotateSecret prod/billing' };
    expect(actions(remediationTraced({ category: 'permissions', root: 'billing', mechanism: 'credentials', alreadyRestarting: false, change: rotation }).steps)).toEqual(['revert-config billing']);
  });

  it('a runbook restart adds nothing after a rollback', () => {
    const plan = remediationTraced({ category: 'deploy', root: 'api', alreadyRestarting: false }).steps;
    const runbook = { ref: 'R1', id: 'rb', title: 'API rollback', steps: ['Roll back to the previous task definition', 'Restart the service'] };
    expect(actions(withRunbookStep(plan, runbook, 'api'))).toEqual(['rollback api']);
  });

  it('reads a certificate renewal in a runbook, not a subscription renewal run', () => {
    expect(runbookActions(['Check the weekly renewal run progress lines.', 'Check the renewal-charger queue'])).toEqual([]);
    expect(runbookActions(['Request a certificate renewal in ACM'])).toEqual(['renew-certificate']);
    expect(runbookActions(['Renew the origin certificate and re-import it'])).toEqual(['renew-certificate']);
  });

  it('capacity cut by a change is given back, and the setting that cut it reverted', () => {
    const cut = { ref: 'E3', service: 'api', timestamp: '2026-05-01T10:00:00Z', at: 0, kind: 'scaling', summary: 'scheduled action: desired count 40 -> 4' };
    expect(actions(remediationTraced({ category: 'config', root: 'api', alreadyRestarting: false, capacityCut: cut }).steps)).toEqual(['scale api', 'revert-config api']);
  });

  it('a poison record is first taken out of the way where it waits: at a queue, or at the reader of a stream', () => {
    expect(actions(remediationTraced({ category: 'data', root: 'writer', alreadyRestarting: false, poison: { carrier: 'orders-q', reader: 'projector', carrierIsQueue: true } }).steps)).toEqual([
      'apply-fix orders-q',
      'apply-fix writer',
    ]);
    expect(actions(remediationTraced({ category: 'data', root: 'writer', alreadyRestarting: false, poison: { carrier: 'readings', reader: 'detector', carrierIsQueue: false, inOrder: 'stream' } }).steps)).toEqual([
      'apply-fix detector',
      'apply-fix writer',
    ]);
  });
});
