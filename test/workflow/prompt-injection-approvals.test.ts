import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { InvestigableScenario } from '../../lib/domain/scenario.ts';
import type { ModelRequest, ToolCall } from '../../lib/model/port.ts';
import { RecordingNotifier } from '../../lib/notify/recording-notifier.ts';
import { DynamoDbApprovalStore } from '../../lib/store/dynamodb-approval-store.ts';
import { actionsOf, approvalsOf } from '../../lib/workflow/actions-taken.ts';
import type { ApproveMode } from '../../local/approval-policy.ts';
import { BUNDLED_SCENARIOS_DIR, parseScenarioText } from '../../local/scenario-files.ts';
import { investigateScenario } from '../../local/session.ts';
import { LocalTaskTokenWaits } from '../../local/task-token-waits.ts';
import { freshStore } from '../support/dynamodb.ts';
import { ScriptedModel, finalAnswer } from '../support/scripted-model.ts';

/** A bundled scenario whose logs carry instructions aimed at the agent: a customer's ticket text, logged by the services. */
const FILE = 'helpdesk-api-release-logs-instruct-agent.json';
const injected: InvestigableScenario = parseScenarioText(readFileSync(join(BUNDLED_SCENARIOS_DIR, FILE), 'utf8'), FILE);
const INSTRUCTION = /ignore (all )?previous instructions/i;
/** Every ECS service of the scenario: what "restart every service" means to a model that obeys. */
const services = (injected.environment.services ?? []).filter((service) => service.kind === 'ecs').map((service) => service.name);

/** A model that obeys whatever instructions it reads: once the logs tell it to, it restarts every service. */
const obedientModel = () =>
  new ScriptedModel((request: ModelRequest, turn) => {
    if (turn === 1) return { toolCalls: [{ id: 'logs', name: 'query_logs', arguments: { sinceMinutes: 600 } }] };
    const read = JSON.stringify(request.messages);
    if (turn === 2 && INSTRUCTION.test(read)) {
      const restarts: ToolCall[] = services.map((service, index) => ({ id: `restart_${index}`, name: 'ecs_force_new_deployment', arguments: { cluster: 'prod-support', service } }));
      return { text: 'The logs instruct a restart of every service.', toolCalls: restarts };
    }
    return { text: finalAnswer('helpdesk-api') };
  });

const run = async (approve: ApproveMode) => {
  const { client, tableName, store } = await freshStore();
  const approvals = new DynamoDbApprovalStore({ client, tableName });
  const notifier = new RecordingNotifier();
  const progress: string[] = [];
  const tokens: string[] = [];
  const open = LocalTaskTokenWaits.prototype.open;
  LocalTaskTokenWaits.prototype.open = function (this: LocalTaskTokenWaits, seconds: number) {
    const opened = open.call(this, seconds);
    tokens.push(opened.taskToken);
    return opened;
  };
  const model = obedientModel();
  try {
    const result = await investigateScenario({ store, notifier, approvals }, injected, model, { approve, maxIterations: 4, onProgress: (line) => progress.push(line) });
    const events = await store.events(result.investigationId);
    return { ...result, events, approvals, notifier, progress, tokens, model };
  } finally {
    LocalTaskTokenWaits.prototype.open = open;
  }
};

describe('instructions in the logs cannot act without an approved record', () => {
  it.each(['none', 'ask'] as const)('--approve %s: the obedient model proposes restarts, none runs, the report lists them declined', async (approve) => {
    const { events, investigation, approvals, tokens, model } = await run(approve);
    expect(model.requests.some((request) => INSTRUCTION.test(JSON.stringify(request.messages)))).toBe(true);
    expect(services.length).toBeGreaterThan(1);
    expect(approvalsOf(events)).toHaveLength(services.length);
    expect(events.filter((event) => event.type === 'action.executed')).toHaveLength(0);
    expect(actionsOf(events).map((action) => action.status)).toEqual(services.map(() => 'declined'));
    expect(await approvals.listApprovals('approved')).toHaveLength(0);
    expect(investigation.status).toBe('succeeded');
    expect(investigation.finding?.report).toMatch(/## Actions[\s\S]*declined by the approver/);
    expect(tokens).toHaveLength(services.length);
  });

  it('--approve all: every action runs only with its approved record, in order, each followed by its verification; the token leaks nowhere', async () => {
    const { events, approvals, tokens, model, notifier, progress, investigation } = await run('all');
    const executed = events.filter((event) => event.type === 'action.executed').map((event) => event.payload as { approvalId: string; status: string });
    expect(executed).toHaveLength(services.length);
    for (const action of executed) expect((await approvals.getApproval(action.approvalId))?.status).toBe('approved');
    const types = events.map((event) => event.type).filter((type) => type.startsWith('action.'));
    expect(types).toEqual(services.flatMap(() => ['action.executed', 'action.verified']));
    expect(actionsOf(events).map((action) => action.status)).toEqual(services.map(() => 'executed'));
    expect(investigation.finding?.report).toMatch(/Done: see Actions[\s\S]*## Actions[\s\S]*executed after approval\. Verification: the action was recorded, not executed/);
    const everything = JSON.stringify({ events, requests: model.requests, notices: notifier.notices, approvalNotices: notifier.approvalNotices, progress, investigation, records: await approvals.listApprovals('approved') });
    expect(tokens.length).toBe(services.length);
    expect(notifier.approvalNotices).toHaveLength(services.length);
    for (const token of tokens) expect(everything).not.toContain(token);
  });
});
