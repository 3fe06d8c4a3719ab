import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, linesFrom, series, sorted } from './board-builder.ts';

const START = '2026-07-14T01:00:00.000Z';
const lines = linesFrom(START);

/**
 * A scheduled rotation of the billing database's secret at minute 47: the rotation function logs
 * each step it runs, and the step `failedStep` fails (permission denied on its audit table). From
 * minute 50 the API's new connections are refused by the database. `release` puts a release of the
 * rotation function six days before; `earlierSuccess` a successful rotation between that release
 * and this one.
 */
const rotation = ({ failedStep, release = false, earlierSuccess = false }: { failedStep: 'createSecret' | 'setSecret'; release?: boolean; earlierSuccess?: boolean }) =>
  boardFrom({
    brief: 'CloudWatch alarm "billing-api-5xx" is in ALARM',
    services: [
      { name: 'billing-api', kind: 'ecs', dependsOn: ['billing-db', 'billing-db-credentials'] },
      { name: 'billing-db', kind: 'rds' },
      { name: 'billing-db-credentials', kind: 'other' },
      { name: 'billing-db-rotator', kind: 'lambda', dependsOn: ['billing-db', 'billing-db-credentials'] },
    ],
    alarms: [{ name: 'billing-api-5xx', service: 'billing-api', state: 'ALARM', since: at(START, 55) }],
    changes: [
      ...(release ? [{ service: 'billing-db-rotator', timestamp: at(START, -6 * 24 * 60), kind: 'deploy', summary: 'billing-db-rotator v1.4.0 published as version 14' }] : []),
      ...(earlierSuccess ? [{ service: 'billing-db-credentials', timestamp: at(START, -3 * 24 * 60), kind: 'other', summary: 'CloudTrail RotationSucceeded for secret prod/billing/db' }] : []),
      { service: 'billing-db-credentials', timestamp: at(START, 47), kind: 'config', summary: 'CloudTrail PutSecretValue on prod/billing/db: new version with VersionStages [AWSPENDING]' },
    ],
    metrics: [{ service: 'billing-api', name: 'HTTPCode_Target_5XX_Count', points: series(START, 80, (minute) => (minute < 50 ? 0 : 150)) }],
    logs: sorted([
      ...lines('billing-api', 0, 5, 10, 'INFO', (index) => `GET /v1/invoices/${index} 200`),
      { service: 'billing-db-rotator', timestamp: at(START, 47), level: 'INFO', message: "event {'Step': 'createSecret', 'SecretId': 'prod/billing/db'}" },
      ...(failedStep === 'setSecret'
        ? [
            { service: 'billing-db-rotator', timestamp: at(START, 47.2), level: 'INFO', message: "createSecret: Successfully put secret for ARN prod/billing/db" },
            { service: 'billing-db-rotator', timestamp: at(START, 47.5), level: 'INFO', message: "event {'Step': 'setSecret', 'SecretId': 'prod/billing/db'}" },
            { service: 'billing-db-rotator', timestamp: at(START, 47.8), level: 'INFO', message: 'setSecret: Successfully set password for user billing_svc in PostgreSQL DB' },
          ]
        : []),
      { service: 'billing-db-rotator', timestamp: at(START, 48), level: 'ERROR', message: '[ERROR] ProgrammingError: ERROR:  permission denied for table credential_rotation_log' },
      ...lines('billing-api', 50, 1, 25, 'ERROR', () => 'HikariPool-1 - failed to create connection: FATAL: password authentication failed for user "billing_svc"'),
    ]),
  });

const plan = (draft: ReturnType<typeof diagnose>['draft']) => draft.remediation.map(({ action, target }) => `${action} ${target}`);

describe('credentials refused after a rotation function failed half way', () => {
  it('blame the rotation function, not the secret it rotated or the clients refused, and finish the rotation before mending it', () => {
    const diagnosis = diagnose(rotation({ failedStep: 'setSecret' }));
    expect(diagnosis.root).toBe('billing-db-rotator');
    expect(diagnosis.principles).toContain('rotation-failed');
    expect(diagnosis.category).toBe('permissions');
    expect(diagnosis.draft.rootCause.summary).toContain('failed at its setSecret step');
    expect(plan(diagnosis.draft)).toEqual(['rotate-credentials billing-db-credentials', 'restart billing-api', 'apply-fix billing-db-rotator']);
  });

  it("roll back the function's release when this rotation was its first run", () => {
    const diagnosis = diagnose(rotation({ failedStep: 'setSecret', release: true }));
    expect(diagnosis.category).toBe('deploy');
    expect(plan(diagnosis.draft).at(-1)).toBe('rollback billing-db-rotator');
  });

  it('leave the release alone when a rotation succeeded after it', () => {
    const diagnosis = diagnose(rotation({ failedStep: 'setSecret', release: true, earlierSuccess: true }));
    expect(diagnosis.root).toBe('billing-db-rotator');
    expect(plan(diagnosis.draft).at(-1)).toBe('apply-fix billing-db-rotator');
  });

  it('say nothing of it when the function failed before it staged anything (createSecret): the password never moved', () => {
    const diagnosis = diagnose(rotation({ failedStep: 'createSecret' }));
    expect(diagnosis.root).not.toBe('billing-db-rotator');
    expect(diagnosis.principles).not.toContain('rotation-failed');
  });
});
