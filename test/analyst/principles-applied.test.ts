import { describe, expect, it } from 'vitest';
import { blameChainTraced } from '../../lib/analyst/blame-chain.ts';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { OfflineAnalyst } from '../../lib/analyst/offline-analyst.ts';
import { principles } from '../../lib/analyst/principles.ts';
import { collectSignals } from '../../lib/analyst/signals.ts';
import { at, boardFrom, series } from './board-builder.ts';

const START = '2026-05-01T10:00:00.000Z';

const failing = (service: string, message: string) => Array.from({ length: 12 }, (_, index) => ({ service, timestamp: at(START, 60 + index * 3), level: 'ERROR', message }));

const working = (service: string) => Array.from({ length: 20 }, (_, index) => ({ service, timestamp: at(START, index * 3), level: 'INFO', message: `request ${index} served` }));

/** A service whose capacity a scheduled scale-in cut just before it saturated. */
const capacityCut = boardFrom({
  services: [{ name: 'scores-api', kind: 'ecs' }],
  changes: [{ service: 'scores-api', timestamp: at(START, 59), kind: 'scaling', summary: 'scheduled action scale-in: desired count 40 -> 4' }],
  metrics: [{ service: 'scores-api', name: 'CPUUtilization', points: series(START, 120, (minute) => (minute >= 60 ? 99 : 35 + (minute % 4))) }],
  logs: failing('scores-api', 'GET /v1/live timed out after 10000ms waiting for worker'),
});

describe('the diagnosis names the principles that shaped it', () => {
  it('a capacity cut decides the category, the words and the plan, and the summary states it in plain words', () => {
    const diagnosis = diagnose(capacityCut);
    expect(diagnosis.principles).toContain('capacity-cut');
    expect(diagnosis.draft.rootCause.summary).toContain(`Reasoning: `);
    expect(diagnosis.draft.rootCause.summary).toContain(principles['capacity-cut']);
  });

  it('a rule whose result the diagnosis does not use is not named', () => {
    const diagnosis = diagnose(capacityCut);
    // One service and no calls: there was no chain to follow and no client to blame.
    expect(diagnosis.principles).not.toContain('follow-failure-down-calls');
    expect(diagnosis.principles).not.toContain('early-client-is-load');
    expect(new Set(diagnosis.principles).size).toBe(diagnosis.principles.length);
  });

  it("a runbook step is named only when it adds an action the plan lacks", () => {
    const withRunbook = (steps: string[]) => ({ ...capacityCut, runbooks: [{ ref: 'E9', id: 'scores-api-saturated', title: 'scores-api saturated', service: 'scores-api', steps }] });
    const added = diagnose(withRunbook(['Restart the scores-api tasks to clear stuck workers.']));
    expect(added.draft.remediation.map((step) => step.action)).toEqual(['scale', 'revert-config', 'restart']);
    expect(added.principles).toContain('remedy-runbook-step');
    // Scaling is already the plan's first step: the runbook adds nothing.
    const covered = diagnose(withRunbook(['Scale scores-api out to its usual desired count.']));
    expect(covered.draft.remediation.map((step) => step.action)).toEqual(['scale', 'revert-config']);
    expect(covered.principles).not.toContain('remedy-runbook-step');
  });

  it('a healthy verdict names what explains each alert', () => {
    const diagnosis = diagnose(
      boardFrom({
        brief: 'CloudWatch alarm "api-latency-high" is in ALARM',
        services: [{ name: 'api', kind: 'ecs' }],
        alarms: [{ name: 'api-latency-high', service: 'api', state: 'ALARM', since: at(START, 62) }],
        changes: [{ service: 'api', timestamp: at(START, 55), kind: 'other', summary: 'load test of api announced by the perf team' }],
      }),
    );
    expect(diagnosis.incident).toBe(false);
    expect(diagnosis.principles).toEqual(['announced-work']);
  });

  it("a chain's sub-rule counts only where the link would differ without it", () => {
    const board = boardFrom({
      services: [
        { name: 'web', kind: 'ecs', dependsOn: ['orders', 'search'] },
        { name: 'orders', kind: 'ecs' },
        { name: 'search', kind: 'ecs' },
      ],
      logs: [...working('web'), ...working('orders'), ...failing('web', 'GET /orders failed: orders returned 500'), ...failing('orders', 'NullPointerException in OrderMapper')].sort((a, b) =>
        a.timestamp.localeCompare(b.timestamp),
      ),
    });
    const traced = blameChainTraced(board, collectSignals(board), 'web', () => Date.parse(at(START, 60)));
    expect(traced.links).toEqual(['web', 'orders']);
    expect(traced.principles).toEqual(['follow-failure-down-calls']);
  });

  it("a caller's wait for its own pool keeps the chain at the caller, and that is the sub-rule's doing", () => {
    const board = boardFrom({
      services: [
        { name: 'web', kind: 'ecs', dependsOn: ['orders-db'] },
        { name: 'orders-db', kind: 'rds' },
      ],
      logs: [...working('web'), ...failing('web', 'timeout acquiring connection from pool for orders-db after 30000ms')].sort((a, b) => a.timestamp.localeCompare(b.timestamp)),
    });
    const traced = blameChainTraced(board, collectSignals(board), 'web', () => Date.parse(at(START, 60)));
    expect(traced.links).toEqual(['web']);
    expect(traced.principles).toEqual(['own-side-complaint']);
  });

  it("the offline analyst's final answer carries the principle names into the transcript", async () => {
    const analyst = new OfflineAnalyst();
    const response = await analyst.complete({
      system: '',
      messages: [
        { role: 'user', content: 'Scheduled health sweep' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'call_1', name: 'list_alarms', arguments: {} }] },
        { role: 'tool', toolCallId: 'call_1', name: 'list_alarms', content: JSON.stringify({ ref: 'E1', available: true, alarms: [] }) },
      ],
      tools: [],
      toolChoice: 'none',
    });
    const answer = JSON.parse(response.text) as { principles?: unknown };
    expect(answer.principles).toEqual([]);
  });
});
