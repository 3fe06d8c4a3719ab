import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, linesFrom, pointsBetween, sorted } from './board-builder.ts';

const START = '2026-10-07T08:00:00.000Z';
const lines = linesFrom(START);

/**
 * A rates job writes a table every 15 minutes; checkout prices orders from it; a reconciliation
 * finds order totals that no longer match what the payment provider settled from minute 240 on.
 */
const reconciliation = ({
  keptFrom = 180,
  habit = false,
  alarm = 'recon-mismatch-high',
  complaint = 'mismatch: 26 orders total differs from settled amount',
}: { keptFrom?: number; habit?: boolean; alarm?: string; complaint?: string } = {}) =>
  diagnose(
    boardFrom({
      brief: `CloudWatch alarm "${alarm}" changed to ALARM at 2026-10-07T12:05:00Z.`,
      services: [
        { name: 'checkout-api', kind: 'ecs', dependsOn: ['rates-table', 'payments'] },
        { name: 'rates-sync', kind: 'lambda', dependsOn: ['ratefeed', 'rates-table'] },
        { name: 'rates-table', kind: 'dynamodb' },
        { name: 'ratefeed', kind: 'external' },
        { name: 'payments', kind: 'external' },
        { name: 'recon', kind: 'lambda', dependsOn: ['checkout-api'] },
      ],
      alarms: [{ name: alarm, service: 'recon', state: 'ALARM', since: '2026-10-07T12:05:00Z' }],
      metrics: [{ service: 'recon', name: 'MismatchedOrderPercent', periodSeconds: 3600, points: pointsBetween(START, 0, 300, 60, (minute) => (minute >= 240 ? 26 : 0.4)) }],
      logs: sorted([
        ...lines('rates-sync', 0, 15, keptFrom / 15, 'INFO', () => 'published 41 pairs updated=41 carried_forward=0'),
        // The day before, beyond the day a complaint reaches back to.
        ...(habit ? [{ service: 'rates-sync', timestamp: at(START, -1500), level: 'WARN', message: 'feed slow; using last known value for 3 pairs' }] : []),
        ...lines('rates-sync', keptFrom, 15, (300 - keptFrom) / 15, 'WARN', () => 'missing field "rates" in feed payload, using last known value for 41 pairs'),
        ...lines('checkout-api', 1, 5, 60, 'INFO', (index) => `order KL-${1000 + index} placed total=EUR 40.00`),
        ...lines('recon', 245, 60, 1, 'WARN', () => complaint),
      ]),
    }),
  );

describe('a writer that turned to its last known values', () => {
  it('is where data its reader finds wrong came from, though nothing failed', () => {
    const diagnosis = reconciliation();
    expect(diagnosis.root).toBe('rates-sync');
    expect(diagnosis.principles).toContain('writer-kept-old-values');
    expect(diagnosis.draft.rootCause.category).toBe('data');
    expect(diagnosis.draft.rootCause.summary).toContain('has written its last known values in place of fresh ones');
  });

  it('a writer that kept old values the day before as well does so by habit', () => {
    expect(reconciliation({ habit: true }).principles).not.toContain('writer-kept-old-values');
  });

  it('old values kept from the start of the evidence are not shown to be new', () => {
    expect(reconciliation({ keptFrom: 0 }).principles).not.toContain('writer-kept-old-values');
  });

  it('records written twice are no old values', () => {
    expect(reconciliation({ alarm: 'recon-duplicates-high', complaint: 'duplicate rows: 26 orders appear twice in the report' }).principles).not.toContain('writer-kept-old-values');
  });
});
