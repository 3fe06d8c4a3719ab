import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { scenarioTools } from '../../integrations/scenario/index.ts';
import { readEvidence, recordResult, emptyBoard } from '../../lib/analyst/evidence-board.ts';
import { OfflineAnalyst } from '../../lib/analyst/offline-analyst.ts';
import { capToolResult } from '../../lib/context/index.ts';
import { contractNamed, investigationContracts, listAlarmsContract, listChangesContract, queryLogsContract } from '../../lib/tools/contracts/index.ts';
import { CHANGES_MAX_SINCE_MINUTES } from '../../lib/tools/contracts/list-changes.ts';
import { surveyCalls } from '../../lib/tools/contracts/survey.ts';
import { implementTool, runsWithoutApproval } from '../../lib/tools/tool.ts';
import { Toolbox } from '../../lib/tools/toolbox.ts';
import { loadScenarioDirectory } from '../../local/evaluation.ts';
import { BUNDLED_SCENARIOS_DIR } from '../../local/scenario-files.ts';
import { remediationContracts } from '../../lib/tools/contracts/remediation-contracts.ts';

const now = new Date('2026-04-06T04:10:00Z');

describe('tool contracts', () => {
  it('names every contract once', () => {
    const names = investigationContracts.map((contract) => contract.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(contractNamed(name)?.name).toBe(name);
  });

  it('the scenario source implements every contract, and each result it returns fits its contract', async () => {
    const { scenarios } = loadScenarioDirectory(BUNDLED_SCENARIOS_DIR);
    const implemented = new Set(scenarioTools({}, now).map((tool) => tool.name));
    expect([...implemented].sort()).toEqual([...investigationContracts, ...remediationContracts].map((contract) => contract.name).sort());
    for (const scenario of scenarios.slice(0, 6)) {
      const clock = new Date(scenario.now);
      const toolbox = new Toolbox(scenarioTools(scenario.environment, clock));
      for (const call of surveyCalls(240, 'DEBUG')) {
        const outcome = await toolbox.execute({ id: 'c', name: call.contract.name, arguments: call.arguments as Record<string, unknown> }, { now: clock });
        expect(outcome.ok, `${scenario.id} ${call.contract.name}: ${outcome.ok ? '' : outcome.error}`).toBe(true);
      }
    }
  });

  it('reads changes back two weeks (a cut waits for the next weekly peak) and every other source back one', () => {
    const week = 7 * 24 * 60;
    expect(listChangesContract.input.safeParse({ sinceMinutes: 8 * 24 * 60 }).success).toBe(true);
    expect(listChangesContract.input.safeParse({ sinceMinutes: CHANGES_MAX_SINCE_MINUTES + 1 }).success).toBe(false);
    expect(queryLogsContract.input.safeParse({ sinceMinutes: week }).success).toBe(true);
    expect(queryLogsContract.input.safeParse({ sinceMinutes: week + 1 }).success).toBe(false);
  });

  it('turns a result that breaks its contract into an error the model sees', async () => {
    const broken = implementTool(listAlarmsContract, {
      sideEffect: 'read-only',
      iamActions: [],
      // A source bug: the state is not one CloudWatch has.
      run: async () => ({ summary: 'one alarm', data: { available: true, alarms: [{ name: 'a', service: 's', state: 'FIRING' as never }] } }),
    });
    const outcome = await new Toolbox([broken]).execute({ id: 'c', name: 'list_alarms', arguments: {} }, { now });
    expect(outcome.ok).toBe(false);
    expect(!outcome.ok && outcome.error).toMatch(/list_alarms returned a result that breaks its contract[\s\S]*state/);
  });

  it('does not run a read-only tool whose own predicate asks for approval for this input', async () => {
    let ran = 0;
    const guarded = implementTool(listAlarmsContract, {
      sideEffect: 'read-only',
      iamActions: [],
      needsApproval: (input) => input.state === 'OK',
      run: async () => {
        ran += 1;
        return { summary: 'none', data: { available: true, alarms: [] } };
      },
    });
    const toolbox = new Toolbox([guarded]);
    expect((await toolbox.execute({ id: 'c', name: 'list_alarms', arguments: { state: 'OK' } }, { now })).ok).toBe(false);
    expect((await toolbox.execute({ id: 'c', name: 'list_alarms', arguments: { state: 'ALARM' } }, { now })).ok).toBe(true);
    expect(ran).toBe(1);
    expect(runsWithoutApproval<typeof listAlarmsContract.input>({ ...guarded, sideEffect: 'mutating' }, { state: 'ALARM' })).toBe(false);
  });
});

describe('the evidence board reads results through their contracts', () => {
  it('lists a result that does not fit as unreadable instead of dropping it silently', () => {
    const board = emptyBoard('brief');
    recordResult(board, 'query_logs', 'E1', { available: true, matched: 1, lines: [{ timestamp: 5, message: 'x' }], templates: [] });
    expect(board.logs).toHaveLength(0);
    expect(board.unreadable).toEqual([expect.objectContaining({ ref: 'E1', tool: 'query_logs' })]);
  });

  it('reads a capped result: the capping keeps the contract shape', () => {
    const lines = Array.from({ length: 2000 }, (_, index) => ({
      timestamp: new Date(now.getTime() - (2000 - index) * 1000).toISOString(),
      service: 'orders',
      level: index % 50 === 0 ? 'ERROR' : 'INFO',
      message: `request ${index} handled in ${index % 97} ms for customer c-${index * 7}`,
    }));
    const data = { available: true, matched: lines.length, lines, templates: [] };
    const capped = capToolResult(data, 2_000);
    expect(capped.capped).toBe(true);
    const board = emptyBoard('brief');
    recordResult(board, queryLogsContract.name, 'E1', capped.data);
    expect(board.unreadable).toEqual([]);
    expect(board.logs.length).toBeGreaterThan(0);
    expect(board.logs.length).toBeLessThan(lines.length);
  });

  it('the offline analyst names unreadable evidence in its finding', async () => {
    const messages = [
      { role: 'user' as const, content: 'CloudWatch alarm "x" is in ALARM' },
      { role: 'assistant' as const, content: '', toolCalls: [{ id: 'c1', name: 'list_alarms', arguments: {} }] },
      { role: 'tool' as const, toolCallId: 'c1', name: 'list_alarms', content: JSON.stringify({ ref: 'E1', summary: 's', data: { available: true, alarms: 'not a list' } }) },
    ];
    expect(readEvidence(messages).unreadable).toHaveLength(1);
    const response = await new OfflineAnalyst().complete({ system: '', messages, tools: [], toolChoice: 'none' });
    const draft = z.object({ followUps: z.array(z.string()) }).parse(JSON.parse(response.text));
    expect(draft.followUps.join('\n')).toMatch(/Could not read list_alarms result E1/);
  });
});
