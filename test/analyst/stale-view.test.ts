import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { inferCause } from '../../lib/analyst/infer-cause.ts';
import { at, boardFrom, linesFrom, series, sorted, step } from './board-builder.ts';

const START = '2026-05-04T10:00:00.000Z';
const lines = linesFrom(START);

interface Shape {
  /** What happened to the shared dependency at minute 60. */
  change?: { kind: string; summary: string };
  /** The failing caller's complaint, from minute 61 on. */
  failure: string;
  /** The other caller stumbles at minute 60 and then works on. */
  otherStumbles?: boolean;
  /** The other caller keeps failing too. */
  otherKeepsFailing?: boolean;
  /** The dependency's own connections run at their limit from minute 60. */
  dependencyFaulty?: boolean;
  /** The dependency holds more connections from minute 60 (its callers reconnecting), none refused. */
  connectionsRise?: boolean;
  dependencyKind?: string;
  callerKind?: string;
  /** What the other caller logs when it stumbles at minute 60. */
  stumble?: string;
  /** The dependency logs each refused sign-in, as a database does, from minute 61. */
  dependencyLogsRefusals?: boolean;
  /** The other caller logs its calls to the dependency answered, from minute 62. */
  otherLogsAnswers?: boolean;
  /** A change of the failing caller's own, at minute 59. */
  callerChange?: { kind: string; summary: string };
  /** When the other caller stumbles, and when the dependency begins to log refused sign-ins. */
  stumbleAt?: number;
  refusalsFrom?: number;
  /** The dependency logs each write it refuses as read-only, as a database reader does, from this minute. */
  readOnlyRefusalsFrom?: number;
}

/** Two callers of one dependency; `refund-api` fails from minute 61 to minute 120. */
const board = ({
  change,
  failure,
  otherStumbles = true,
  otherKeepsFailing = false,
  dependencyFaulty = false,
  connectionsRise = false,
  dependencyKind = 'rds',
  callerKind = 'ecs',
  stumble = 'db error on POST /v2/payments: Connection lost: The server closed the connection',
  dependencyLogsRefusals = false,
  otherLogsAnswers = false,
  callerChange,
  stumbleAt = 60,
  refusalsFrom = 61,
  readOnlyRefusalsFrom,
}: Shape) =>
  boardFrom({
    brief: 'CloudWatch alarm refund-api-5xx is in ALARM',
    services: [
      { name: 'care-console', kind: 'ecs', dependsOn: ['refund-api'] },
      { name: 'refund-api', kind: callerKind, dependsOn: ['ledger'] },
      { name: 'payments-api', kind: 'ecs', dependsOn: ['ledger'] },
      { name: 'ledger', kind: dependencyKind },
    ],
    alarms: [
      { name: 'refund-api-5xx', service: 'refund-api', state: 'ALARM', since: at(START, 64) },
      { name: 'payments-api-5xx', service: 'payments-api', state: otherKeepsFailing ? 'ALARM' : 'OK', since: at(START, otherKeepsFailing ? 64 : 66) },
    ],
    changes: [...(callerChange ? [{ service: 'refund-api', timestamp: at(START, 59), ...callerChange }] : []), ...(change ? [{ service: 'ledger', timestamp: at(START, 60), ...change }] : [])],
    logs: sorted([
      ...lines('refund-api', 0, 4, 15, 'INFO', (index) => `POST /v1/refunds 201 order=ORD-${1000 + index}`),
      ...lines('refund-api', 61, 2, 30, 'ERROR', (index) => `POST /v1/refunds order=ORD-${2000 + index} failed: ${failure}`),
      ...lines('payments-api', 0, 3, 40, 'INFO', (index) => `POST /v2/payments 201 id=p${index}`),
      ...(otherStumbles ? lines('payments-api', stumbleAt, 1, 2, 'ERROR', () => stumble) : []),
      ...(dependencyLogsRefusals ? lines('ledger', refusalsFrom, 2, 30, 'FATAL', () => 'FATAL:  password authentication failed for user "ledger_app"') : []),
      ...(readOnlyRefusalsFrom !== undefined ? lines('ledger', readOnlyRefusalsFrom, 2, 20, 'ERROR', () => 'ERROR:  cannot execute INSERT in a read-only transaction') : []),
      ...(otherLogsAnswers ? lines('payments-api', 62, 3, 15, 'INFO', (index) => `ledger lookup ok ref=L${index} status=200 elapsed=180ms`) : []),
      ...(otherKeepsFailing ? lines('payments-api', 62, 2, 29, 'ERROR', (index) => `POST /v2/payments id=q${index} failed: ${failure}`) : []),
      ...lines('payments-api', 121, 1, 1, 'INFO', () => 'POST /v2/payments 201 id=last'),
    ]),
    metrics: [
      { service: 'refund-api', name: 'HTTPCode_Target_5XX_Count', points: series(START, 120, step(61, 0, 12)) },
      { service: 'ledger', name: 'DatabaseConnections', points: series(START, 120, dependencyFaulty ? step(60, 120, 1000) : connectionsRise ? step(60, 120, 300) : () => 120) },
      ...(dependencyFaulty ? [{ service: 'ledger', name: 'ConnectionErrors', points: series(START, 120, step(60, 0, 40)) }] : []),
    ],
  });

const failover = { kind: 'infrastructure', summary: 'FailoverDBCluster ledger to ledger-instance-2' };
const readOnly = 'ERROR 1290 (HY000): The MySQL server is running with the --read-only option so it cannot execute this statement';

describe('the one caller still failing on a dependency that serves the callers that stumbled with it', () => {
  it('is the root: it holds an address from before the failover, restarted first, then made to refresh it', () => {
    const cause = inferCause(board({ change: failover, failure: readOnly }));
    expect(cause).toMatchObject({ verdict: 'incident', root: 'refund-api', category: 'config', staleView: { dependency: 'ledger', recovered: ['payments-api'], holding: 'address' } });
    expect(cause.verdict === 'incident' && cause.principles).toContain('sole-failing-caller');
    const { draft } = diagnose(board({ change: failover, failure: readOnly }));
    expect(draft.rootCause.summary).toContain('ledger serves payments-api again');
    expect(draft.remediation.map(({ action, target }) => `${action} ${target}`)).toEqual(['restart refund-api', 'apply-fix refund-api']);
  });

  it('the dependency logging the writes it refuses as read-only is a reader working as built, wherever the search stopped: the caller holds connections to the old writer', () => {
    for (const from of [61, 75]) {
      const refused = board({ change: failover, failure: 'could not execute statement [ERROR: cannot execute INSERT in a read-only transaction]', readOnlyRefusalsFrom: from });
      expect(inferCause(refused)).toMatchObject({ root: 'refund-api', staleView: { dependency: 'ledger', recovered: ['payments-api'] } });
      expect(diagnose(refused).draft.rootCause.summary).toContain('refund-api still fails on it because it holds the connections it pooled to the old writer, a read-only reader since the failover');
    }
  });

  it('holding more connections while its callers reconnect is no fault of the dependency\'s own; refusing them is', () => {
    expect(inferCause(board({ change: failover, failure: readOnly, connectionsRise: true }))).toMatchObject({ root: 'refund-api', staleView: { dependency: 'ledger', holding: 'address' } });
  });

  it('stumbled with it when the other caller warned of the dependency by name, though in no failure words', () => {
    expect(inferCause(board({ change: failover, failure: readOnly, stumble: 'ledger answered slowly (812 ms) on POST /v2/payments' }))).toMatchObject({ root: 'refund-api', staleView: { recovered: ['payments-api'] } });
  });

  it('holds the previous credential after a rotation, and a pinned key after a certificate change, whose category is certificate', () => {
    const rotated = inferCause(board({ change: { kind: 'config', summary: 'RotateSecret prod/ledger/app' }, failure: 'password authentication failed for user "ledger_app"', dependencyKind: 'other', callerKind: 'lambda' }));
    expect(rotated).toMatchObject({ root: 'refund-api', staleView: { holding: 'credential' } });
    const pinned = board({ failure: 'tls: pinned public key check failed for api.ledger.example: presented chain matches none of the pins', dependencyKind: 'external' });
    expect(inferCause(pinned)).toMatchObject({ root: 'refund-api', category: 'certificate', staleView: { holding: 'certificate' } });
    expect(diagnose(pinned).draft.remediation.map(({ action }) => action)).toEqual(['apply-fix', 'restart']);
  });

  it('a database that logs each refused sign-in is working as built; the rotation is told by who recovered, not by who was ever refused', () => {
    const rotation = { kind: 'config', summary: 'RotateSecret prod/ledger/app: AWSCURRENT moved to the new version' };
    const refused = 'password authentication failed for user "ledger_app"';
    const shape = { change: rotation, failure: refused, stumble: `db error on POST /v2/payments: ${refused}`, dependencyLogsRefusals: true };
    expect(inferCause(board(shape))).toMatchObject({ root: 'refund-api', staleView: { dependency: 'ledger', recovered: ['payments-api'], holding: 'credential' } });
    expect(diagnose(board(shape)).draft.rootCause.summary).toContain('payments-api picked up the new value and kept working, but refund-api still presents the credentials read before the rotation');
  });

  it('is dated by the first sign-ins the dependency refused it, which come before its pooled connections run out; a rotation is known by its staging label', () => {
    const rotation = { kind: 'config', summary: 'Scheduled rotation of prod/ledger/app succeeded; AWSCURRENT moved to version 5fb5f7cc' };
    const refused = 'password authentication failed for user "ledger_app"';
    const shape = { change: rotation, failure: refused, stumble: `db error on POST /v2/payments: ${refused}`, dependencyLogsRefusals: true, stumbleAt: 41, refusalsFrom: 40 };
    expect(inferCause(board(shape))).toMatchObject({ root: 'refund-api', staleView: { dependency: 'ledger', recovered: ['payments-api'], holding: 'credential' } });
    expect(diagnose(board(shape)).draft.rootCause.summary).toContain('A rotated secret: ledger moved to a new secret version');
    const unlogged = inferCause(board({ ...shape, dependencyLogsRefusals: false }));
    expect(unlogged.verdict === 'incident' && unlogged.staleView).toBeFalsy();
  });

  it('is not blamed when no other caller stumbled with it, when the others still fail, or when the dependency shows a fault of its own', () => {
    for (const shape of [
      { change: failover, failure: readOnly, otherStumbles: false },
      { change: failover, failure: readOnly, otherKeepsFailing: true },
      { change: failover, failure: readOnly, dependencyFaulty: true },
      // A routine warning at the moment of the change (an image downscaled) is no stumble on the dependency.
      { change: failover, failure: readOnly, stumble: 'source image 4032x3024 exceeds 12 MP, downscaled before resize' },
    ]) {
      const cause = inferCause(board(shape));
      expect(cause.verdict === 'incident' && cause.staleView).toBeFalsy();
      expect(cause.verdict === 'incident' && cause.principles).not.toContain('sole-failing-caller');
    }
  });

  it('fails from its own change when it changed just before its trouble: that change is the suspect, reverted, and no stale view is told', () => {
    const shape = { change: failover, failure: readOnly, callerChange: { kind: 'config', summary: 'UpdateFunctionConfiguration refund-api: memorySize 1536 -> 512' } };
    const cause = inferCause(board(shape));
    expect(cause).toMatchObject({ verdict: 'incident', root: 'refund-api', category: 'config', suspectChange: { service: 'refund-api' } });
    expect(cause.verdict === 'incident' && cause.staleView).toBeFalsy();
    const { draft } = diagnose(board(shape));
    expect(draft.rootCause.summary).not.toContain('ledger serves payments-api again');
    expect(draft.remediation.map(({ action, target }) => `${action} ${target}`)).toContain('revert-config refund-api');
  });

  describe('a dependency that serves its other callers throughout', () => {
    // The caller names the dependency it calls, so its failures read as the dependency's, on the caller's word.
    const untrusted = 'partner=ledger lookup failed after 3 attempts: Error: unable to get local issuer certificate (code=UNABLE_TO_GET_ISSUER_CERT_LOCALLY)';

    it('leaves the one caller that cannot trust its certificate holding the fault', () => {
      const shape = { failure: untrusted, otherStumbles: false, otherLogsAnswers: true, dependencyKind: 'external' };
      expect(inferCause(board(shape))).toMatchObject({ root: 'refund-api', category: 'certificate', staleView: { dependency: 'ledger', recovered: [], served: ['payments-api'], holding: 'certificate' } });
      expect(diagnose(board(shape)).draft.rootCause.summary).toContain('ledger serves payments-api throughout; refund-api alone fails on it');
    });

    it('says nothing of a failure that is not what the caller holds (a timeout), nor without the other caller\'s answered calls', () => {
      for (const shape of [
        { failure: 'ledger call timed out after 5000ms', otherStumbles: false, otherLogsAnswers: true, dependencyKind: 'external' },
        { failure: untrusted, otherStumbles: false, dependencyKind: 'external' },
      ]) {
        const cause = inferCause(board(shape));
        expect(cause.verdict === 'incident' && cause.staleView).toBeFalsy();
      }
    });
  });
});
