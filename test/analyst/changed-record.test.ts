import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, linesFrom, series, sorted, step } from './board-builder.ts';

const START = '2026-06-03T07:00:00.000Z';
const lines = linesFrom(START);

const ruleRevoked = (port: number) => ({
  service: 'ledger-svc',
  timestamp: at(START, 50),
  kind: 'network',
  summary: `RevokeSecurityGroupIngress on sg-0e83b1d4 (ledger-svc-tasks): removed tcp/${port} from 10.40.0.0/16`,
  details: { eventName: 'RevokeSecurityGroupIngress', requestParameters: { groupId: 'sg-0e83b1d4', ipPermissions: { items: [{ ipProtocol: 'tcp', fromPort: port, toPort: port }] } } },
});

const recordSet = (name: string) => ({
  service: 'internal-dns',
  timestamp: at(START, 57),
  kind: 'network',
  summary: 'route53 ChangeResourceRecordSets (svc.corp.internal, private): 3 changes, comment "reconcile with cmdb export"',
  details: {
    eventName: 'ChangeResourceRecordSets',
    requestParameters: {
      hostedZoneId: 'Z0419273',
      changeBatch: {
        changes: [
          { action: 'UPSERT', resourceRecordSet: { name: 'grafana.svc.corp.internal', type: 'A', resourceRecords: [{ value: '10.40.45.23' }] } },
          { action: 'UPSERT', resourceRecordSet: { name, type: 'A', resourceRecords: [{ value: '10.40.12.37' }] } },
          { action: 'DELETE', resourceRecordSet: { name: 'reports-old.svc.corp.internal', type: 'CNAME', resourceRecords: [{ value: 'reports-legacy.svc.corp.internal' }] } },
        ],
      },
    },
  },
});

/** Two callers of ledger-svc time out connecting to it on port 8443 from minute 58; which rule and which record changed before is the shape's. */
const board = ({ port = 22, record = 'ledger.svc.corp.internal' }: { port?: number; record?: string } = {}) =>
  boardFrom({
    brief: 'CloudWatch alarm "billing-api-5xx" is in ALARM',
    services: [
      { name: 'billing-api', kind: 'ecs', dependsOn: ['ledger-svc'] },
      { name: 'invoice-worker', kind: 'ecs', dependsOn: ['ledger-svc'] },
      { name: 'ledger-svc', kind: 'ecs', dependsOn: ['ledger-db'] },
      { name: 'ledger-db', kind: 'rds' },
      { name: 'internal-dns', kind: 'other' },
    ],
    alarms: [{ name: 'billing-api-5xx', service: 'billing-api', state: 'ALARM', since: at(START, 61) }],
    changes: [ruleRevoked(port), recordSet(record)],
    logs: sorted([
      ...lines('ledger-svc', 0, 3, 19, 'INFO', (index) => `POST /v2/postings 201 posting=P-${index} elapsed=42ms`),
      ...lines('billing-api', 58, 2, 20, 'ERROR', (index) => `ledger-svc call failed for INV-${index}: connect ETIMEDOUT 10.40.12.37:8443 (ledger.svc.corp.internal)`),
      ...lines('invoice-worker', 59, 3, 12, 'ERROR', (index) => `POST /v2/postings attempt 2 failed for INV-${900 + index}: Connect to https://ledger.svc.corp.internal:8443 failed: Connect timed out`),
    ]),
    metrics: [
      { service: 'billing-api', name: 'HTTPCode_Target_5XX_Count', points: series(START, 100, step(58, 0, 40)) },
      { service: 'ledger-svc', name: 'RequestCount', points: series(START, 100, step(58, 1200, 0)) },
      { service: 'ledger-db', name: 'CPUUtilization', points: series(START, 100, () => 22) },
    ],
  });

describe('a rule change for ports the failing connections do not use', () => {
  it('did not stop them: the DNS record set just before for the name they connect to is the cause, named with where it now points', () => {
    const { draft, principles } = diagnose(board());
    expect(draft.rootCause.service).toBe('internal-dns');
    expect(principles).toContain('record-points-elsewhere');
    expect(draft.rootCause.summary).toContain('set the DNS record of ledger.svc.corp.internal to 10.40.12.37 (UPSERT)');
    expect(draft.remediation.map(({ action, target }) => `${action} ${target}`)).toContain('revert-config internal-dns');
  });

  it('stopped them when the rule governs their port', () => {
    expect(diagnose(board({ port: 8443, record: 'vault.svc.corp.internal' })).draft.rootCause.service).toBe('ledger-svc');
  });
});

describe('a network ACL rule change', () => {
  it('drops replies to any port, being stateless: it still explains timeouts on another port, and is worded so', () => {
    const aclReplaced = {
      service: 'ledger-svc',
      timestamp: at(START, 55),
      kind: 'network',
      summary: 'ReplaceNetworkAclEntry on acl-0b5d2e19 (ledger-subnet-b): ingress rule 120 now allow tcp 8080 from 10.40.0.0/16',
    };
    const base = board({ record: 'vault.svc.corp.internal' });
    const withAcl = { ...base, changes: [...base.changes.filter((change) => change.service !== 'ledger-svc'), { ...aclReplaced, at: Date.parse(aclReplaced.timestamp), ref: 'E3' }] };
    const { draft } = diagnose(withAcl);
    expect(draft.rootCause.service).toBe('ledger-svc');
    expect(draft.rootCause.summary).toContain('network ACLs are stateless');
  });
});

describe('a DNS record change', () => {
  it('names no record when none of the names it changed is one the failures name', () => {
    const { draft, principles } = diagnose(board({ record: 'vault.svc.corp.internal' }));
    expect(principles).not.toContain('record-points-elsewhere');
    expect(draft.rootCause.summary).not.toContain('set the DNS record of');
  });
});
