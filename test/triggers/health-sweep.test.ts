import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OfflineAnalyst } from '../../lib/analyst/offline-analyst.ts';
import { admitTrigger } from '../../lib/triggers/admit.ts';
import type { Notice, Notifier } from '../../lib/notify/port.ts';
import { withheldBecause } from '../../lib/workflow/publish.ts';
import { BUNDLED_SCENARIOS_DIR, parseScenarioText } from '../../local/scenario-files.ts';
import { investigateScenario } from '../../local/session.ts';
import { apiOnFreshTable } from '../api/support.ts';
import { freshStore } from '../support/dynamodb.ts';

const bundled = (id: string) => parseScenarioText(readFileSync(join(BUNDLED_SCENARIOS_DIR, `${id}.json`), 'utf8'), `${id}.json`);

/** Stands for every channel at once (the topic, the PagerDuty note, Slack): the fan-out sits behind one notifier. */
class CountingNotifier implements Notifier {
  readonly channel = 'sns+pagerduty+slack';
  readonly notices: Notice[] = [];
  async publish(notice: Notice): Promise<{ messageId?: string }> {
    this.notices.push(notice);
    return { messageId: `sent-${this.notices.length}` };
  }
}

const sweep = async (scenarioId: string) => {
  const scenario = bundled(scenarioId);
  expect(scenario.trigger).toEqual({ schedule: { sweep: 'health' } });
  const { store } = await freshStore();
  const notifier = new CountingNotifier();
  const run = await investigateScenario({ store, notifier: notifier as never }, scenario, new OfflineAnalyst());
  expect(run.investigation.status).toBe('succeeded');
  const events = await store.events(run.investigationId);
  return { finding: run.investigation.finding!, notifier, events };
};

describe('scheduled health sweeps', () => {
  it('a sweep that finds nothing writes its digest on the investigation and pages no one', async () => {
    const { finding, notifier, events } = await sweep('health-sweep-all-clear');
    expect(finding.incident).toBe(false);
    expect(finding.report).toContain('## Sweep digest');
    const digest = finding.report.slice(finding.report.indexOf('## Sweep digest'));
    // Alarms not OK, whatever their cause: one in ALARM (explained as benign) and one with no data.
    expect(digest).toMatch(/\*\*recommendations-feature-latency\*\* \([^)]+\): ALARM/);
    expect(digest).toMatch(/\*\*legacy-reports-cpu-high\*\* \([^)]+\): INSUFFICIENT_DATA/);
    expect(digest).not.toContain('web-shop-5xx');
    expect(digest).toMatch(/Recent changes:\n- \d{4}-\d{2}-\d{2}T/);
    expect(digest).not.toMatch(/<[A-Z]+_\d+>/);

    expect(notifier.notices).toHaveLength(0);
    expect(events.at(-1)).toMatchObject({ type: 'notification', payload: { channel: 'none', withheld: expect.stringContaining('pages no one') } });
  });

  it('a sweep that finds something announces it as an investigation does, with the digest in the report', async () => {
    const { finding, notifier, events } = await sweep('ledger-db-storage-filling');
    expect(finding.incident).toBe(true);
    expect(notifier.notices).toHaveLength(1);
    expect(notifier.notices[0]!.finding.report).toContain('## Sweep digest');
    expect(notifier.notices[0]!.finding.report).toMatch(/\*\*ledger-db-free-storage-low\*\* \([^)]+\): ALARM/);
    expect(events.at(-1)).toMatchObject({ type: 'notification', payload: { channel: 'sns+pagerduty+slack' } });
  });

  it('the rule: only a sweep whose finding is a finished "no incident" is withheld', () => {
    const healthy = { incident: false };
    expect(withheldBecause({ triggerKind: 'schedule' }, healthy)).toMatch(/pages no one/);
    expect(withheldBecause({ triggerKind: 'schedule' }, { incident: true })).toBeUndefined();
    // A sweep that could not finish has not shown health: someone is told.
    expect(withheldBecause({ triggerKind: 'schedule' }, { incident: false, incomplete: { reason: 'budget' } })).toBeUndefined();
    for (const triggerKind of ['cloudwatchAlarm', 'pagerduty', 'question'] as const) expect(withheldBecause({ triggerKind }, healthy)).toBeUndefined();
  });

  it('a sweep Scheduler delivers twice starts once; the next scheduled one starts again', async () => {
    const { ports, starter } = await apiOnFreshTable();
    const at = (scheduledAt: string) => ({ schedule: { sweep: 'health' as const, scheduledAt } });
    const first = await admitTrigger(ports, at('2026-06-10T03:00:00Z'));
    expect(first.outcome).toBe('started');
    expect(await admitTrigger(ports, at('2026-06-10T03:00:00.000Z'))).toEqual({ investigationId: first.investigationId, outcome: 'duplicate' });
    const next = await admitTrigger(ports, at('2026-06-10T04:00:00Z'));
    expect(next.outcome).toBe('started');
    expect(starter.started.map((start) => start.investigationId)).toEqual([first.investigationId, next.investigationId]);
    expect(starter.started[0]!.input.trigger).toEqual(at('2026-06-10T03:00:00Z'));
  });
});
