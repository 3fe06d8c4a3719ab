import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ScenarioReplaySource } from '../../integrations/scenario/replay-source.ts';
import { decideApproval, redeliverDecisions } from '../../lib/approval/decide.ts';
import type { TaskCallbacks } from '../../lib/approval/task-callbacks.ts';
import { RecordingNotifier } from '../../lib/notify/recording-notifier.ts';
import type { LifecycleEvent } from '../../lib/triggers/lifecycle.ts';
import { DynamoDbApprovalStore } from '../../lib/store/dynamodb-approval-store.ts';
import type { ToolCall } from '../../lib/model/port.ts';
import { runWorkflowLocally } from '../../local/run-workflow.ts';
import { BUNDLED_SCENARIOS_DIR, parseScenarioText } from '../../local/scenario-files.ts';
import { LocalTaskTokenWaits } from '../../local/task-token-waits.ts';
import { freshStore } from '../support/dynamodb.ts';
import { ScriptedModel, finalAnswer } from '../support/scripted-model.ts';

const scenario = parseScenarioText(readFileSync(join(BUNDLED_SCENARIOS_DIR, 'bad-deploy-cascade.json'), 'utf8'), 'bad-deploy-cascade.json');

const scaleDown: ToolCall = { id: 'call_scale', name: 'ecs_set_desired_count', arguments: { cluster: 'prod', service: 'inventory-api', desiredCount: 0 } };
const restart: ToolCall = { id: 'call_restart', name: 'ecs_force_new_deployment', arguments: { cluster: 'prod', service: 'inventory-api' } };
const listAlarms: ToolCall = { id: 'call_alarms', name: 'list_alarms', arguments: {} };

type Policy = (approvalId: string, approvals: DynamoDbApprovalStore, waits: LocalTaskTokenWaits) => void;

/** Runs the bundled scenario through the local workflow with a model that proposes `calls` first, deciding each approval with `policy`. */
const investigate = async (calls: ToolCall[], policy: Policy | undefined, options: { approvalTimeoutSeconds?: number } = {}) => {
  const { client, tableName, store } = await freshStore();
  const approvals = new DynamoDbApprovalStore({ client, tableName });
  await store.putSnapshot('env', { now: scenario.now, environment: scenario.environment });
  const model = new ScriptedModel((_, turn) => (turn === 1 ? { text: 'Scaling inventory-api down stops the bad version.', toolCalls: calls } : { text: finalAnswer('inventory-api') }));
  const waits = new LocalTaskTokenWaits();
  const tokens: string[] = [];
  const open = waits.open.bind(waits);
  waits.open = (seconds) => {
    const opened = open(seconds);
    tokens.push(opened.taskToken);
    return opened;
  };
  const investigationId = `inv-${Math.random().toString(36).slice(2)}`;
  const notifier = new RecordingNotifier();
  const lifecycleEvents: LifecycleEvent[] = [];
  const lifecycle = { publish: async (event: LifecycleEvent) => void lifecycleEvents.push(event) };
  const execution = await runWorkflowLocally({
    dependencies: { store, model, tools: new ScenarioReplaySource(store), notifier, lifecycle, approvals },
    input: { trigger: scenario.trigger, investigationId, toolSource: { kind: 'scenario-replay', snapshot: 'env' } },
    approvals: { waits, ...(policy ? { onRequested: (approvalId: string) => policy(approvalId, approvals, waits) } : {}) },
    ...options,
  });
  const events = await store.events(investigationId);
  return { execution, events, approvals, model, tokens, investigationId, store, notifier, lifecycleEvents };
};

const decideAs = (decision: 'approve' | 'reject', approver = 'arn:aws:iam::123456789012:user/alice'): Policy => (approvalId, approvals, waits) => {
  void decideApproval({ approvals, callbacks: waits }, approvalId, { decision }, approver);
};

const typesOf = (events: { type: string }[]) => events.map((event) => event.type);

describe('approval of remediation in the workflow', () => {
  it('approve: runs the approved call once, after the read-only calls of the turn, then verifies', async () => {
    const { execution, events, approvals, tokens } = await investigate([listAlarms, scaleDown], decideAs('approve'));
    expect(execution.status).toBe('SUCCEEDED');
    const types = typesOf(events);
    expect(types.indexOf('approval.requested')).toBeGreaterThan(types.indexOf('tool.result'));
    expect(types.filter((type) => type.startsWith('approval.') || type.startsWith('action.'))).toEqual(['approval.requested', 'approval.decided', 'action.executed', 'action.verified']);
    const result = events.find((event) => event.type === 'tool.result' && (event.payload as { toolCallId: string }).toolCallId === 'call_scale')!.payload as { ref: string; data: { status: string } };
    expect(result.data.status).toBe('recorded');
    expect(result.ref).toBe('E2');
    const [record] = await approvals.listApprovals('approved');
    expect(record).toMatchObject({ action: 'ecs_set_desired_count', arguments: scaleDown.arguments, decidedBy: 'arn:aws:iam::123456789012:user/alice', callback: 'delivered', reason: expect.stringMatching(/Scaling inventory-api down/) });
    expect(tokens).toHaveLength(1);
  });

  it('reject: the call is not run, the model hears why, and the investigation finishes', async () => {
    const { execution, events, model } = await investigate([scaleDown], decideAs('reject'));
    expect(execution.status).toBe('SUCCEEDED');
    expect(typesOf(events)).not.toContain('action.executed');
    const decided = events.find((event) => event.type === 'approval.decided')!.payload as { decision: string };
    expect(decided.decision).toBe('rejected');
    const result = events.find((event) => event.type === 'tool.result')!.payload as { error: string };
    expect(result.error).toMatch(/rejected it/);
    expect(JSON.stringify(model.requests[1])).toMatch(/rejected it/);
  });

  it('expire: nobody decides within the timeout, the record says expired and a late decision gets 410', async () => {
    const { execution, events, approvals } = await investigate([scaleDown], undefined, { approvalTimeoutSeconds: 1 });
    expect(execution.status).toBe('SUCCEEDED');
    expect((events.find((event) => event.type === 'approval.decided')!.payload as { decision: string }).decision).toBe('expired');
    const [record] = await approvals.listApprovals('expired');
    expect(record?.status).toBe('expired');
    const late = await decideApproval({ approvals, callbacks: new LocalTaskTokenWaits() }, record!.id, { decision: 'approve' }, 'alice');
    expect(late.status).toBe(410);
  });

  it('two mutating calls of one turn wait one at a time, each for its own approval', async () => {
    const order: string[] = [];
    const { execution, events } = await investigate([scaleDown, restart], (approvalId, approvals, waits) => {
      order.push(approvalId);
      decideAs('approve')(approvalId, approvals, waits);
    });
    expect(execution.status).toBe('SUCCEEDED');
    expect(order).toHaveLength(2);
    const executed = events.filter((event) => event.type === 'action.executed').map((event) => (event.payload as { action: string }).action);
    expect(executed).toEqual(['ecs_set_desired_count', 'ecs_force_new_deployment']);
  });

  it('the task token appears in no prompt, transcript event, approval notice or lifecycle event', async () => {
    const { events, model, tokens, notifier, lifecycleEvents } = await investigate([scaleDown], decideAs('approve'));
    expect(notifier.approvalNotices).toHaveLength(1);
    expect(lifecycleEvents.map((event) => event.type)).toEqual(['approval.requested']);
    const seen = JSON.stringify({ events, requests: model.requests, notices: notifier.approvalNotices, lifecycleEvents });
    expect(tokens).toHaveLength(1);
    for (const token of tokens) expect(seen).not.toContain(token);
  });

  it('asks the approvers by approval id: the notice and approval.requested carry the action, target, previous value, reason, expiry and how to decide', async () => {
    const { notifier, lifecycleEvents, approvals, investigationId } = await investigate([scaleDown], decideAs('reject'));
    const [record] = await approvals.listApprovals('rejected');
    const [notice] = notifier.approvalNotices;
    expect(notice).toMatchObject({ investigationId, approvalId: record!.id, subject: `Approval needed: ecs_set_desired_count on ${record!.target}` });
    for (const line of [`Approval ${record!.id}`, record!.summary, `Target: ${record!.target}`, `Previous value: ${record!.previousValue ?? 'none'}`, `Reason: ${record!.reason}`, `Expires: ${record!.expiresAt}`, `POST /approvals/${record!.id}`]) {
      expect(notice!.text).toContain(line);
    }
    expect(lifecycleEvents[0]).toEqual({
      type: 'approval.requested',
      investigationId,
      detail: { approvalId: record!.id, action: 'ecs_set_desired_count', target: record!.target, previousValue: record!.previousValue, reason: record!.reason, expiresAt: record!.expiresAt, decide: `POST /approvals/${record!.id}` },
    });
  });

  it('a channel that fails does not stop the approval: the wait goes on and the failure is on the record', async () => {
    const failing = new RecordingNotifier();
    failing.announceApproval = async () => Promise.reject(new Error('SNS is down'));
    const { client, tableName, store } = await freshStore();
    const approvals = new DynamoDbApprovalStore({ client, tableName });
    await store.putSnapshot('env', { now: scenario.now, environment: scenario.environment });
    const model = new ScriptedModel((_, turn) => (turn === 1 ? { text: 'scale down', toolCalls: [scaleDown] } : { text: finalAnswer('inventory-api') }));
    const waits = new LocalTaskTokenWaits();
    const investigationId = `inv-${Math.random().toString(36).slice(2)}`;
    const execution = await runWorkflowLocally({
      dependencies: { store, model, tools: new ScenarioReplaySource(store), notifier: failing, approvals },
      input: { trigger: scenario.trigger, investigationId, toolSource: { kind: 'scenario-replay', snapshot: 'env' } },
      approvals: { waits, onRequested: (approvalId: string) => void decideApproval({ approvals, callbacks: waits }, approvalId, { decision: 'approve' }, 'alice') },
    });
    expect(execution.status).toBe('SUCCEEDED');
    const requested = (await store.events(investigationId)).find((event) => event.type === 'approval.requested')?.payload as { announcementFailures?: string[] };
    expect(requested.announcementFailures).toEqual(['local: SNS is down']);
  });
});

describe('deciding an approval', () => {
  /** A pending approval in the table, with a token and a callback port that records what it was sent. */
  const pending = async (callbacks?: TaskCallbacks) => {
    const { client, tableName } = await freshStore();
    const approvals = new DynamoDbApprovalStore({ client, tableName });
    const sent: string[] = [];
    const recording: TaskCallbacks = callbacks ?? {
      succeed: async (token) => void sent.push(`success:${token}`),
      fail: async (token, error) => void sent.push(`${error}:${token}`),
    };
    const now = new Date();
    await approvals.requestApproval(
      {
        id: 'apr-1',
        investigationId: 'inv-1',
        toolCallId: 'call_1',
        action: 'ecs_set_desired_count',
        target: 'ECS service orders in cluster prod',
        summary: 'Set the desired task count to 0.',
        arguments: { cluster: 'prod', service: 'orders', desiredCount: 0 },
        reason: 'r',
        previousValue: '4',
        actionHash: 'h',
        status: 'pending',
        requestedAt: now.toISOString(),
        expiresAt: new Date(now.getTime() + 60_000).toISOString(),
        callback: 'none',
      },
      'secret-token',
    );
    return { approvals, sent, ports: { approvals, callbacks: recording } };
  };

  it('a second decision is refused with 409 and sends nothing more', async () => {
    const { ports, sent } = await pending();
    expect((await decideApproval(ports, 'apr-1', { decision: 'approve' }, 'alice')).status).toBe(200);
    const second = await decideApproval(ports, 'apr-1', { decision: 'reject' }, 'bob');
    expect(second.status).toBe(409);
    expect(sent).toEqual(['success:secret-token']);
  });

  it('an unknown id is 404; a caller not on the allow-list is 403 and changes nothing', async () => {
    const { ports, approvals } = await pending();
    expect((await decideApproval(ports, 'apr-unknown', { decision: 'approve' }, 'alice')).status).toBe(404);
    expect((await decideApproval({ ...ports, approvers: ['alice'] }, 'apr-1', { decision: 'approve' }, 'mallory')).status).toBe(403);
    expect((await approvals.getApproval('apr-1'))?.status).toBe('pending');
  });

  it('a crash between recording the decision and SendTaskSuccess loses no decision and sends it once more', async () => {
    let failures = 1;
    const sent: string[] = [];
    const { ports, approvals } = await pending({
      succeed: async (token) => {
        if (failures-- > 0) throw new Error('connection reset');
        sent.push(token);
      },
      fail: async () => undefined,
    });
    const first = await decideApproval(ports, 'apr-1', { decision: 'approve' }, 'alice');
    expect(first).toMatchObject({ status: 200, approval: { status: 'approved', callback: 'pending' } });
    expect(await redeliverDecisions(ports)).toBe(1);
    expect(await redeliverDecisions(ports)).toBe(0);
    expect(sent).toEqual(['secret-token']);
    expect(await approvals.getApproval('apr-1')).toMatchObject({ status: 'approved', decidedBy: 'alice', callback: 'delivered' });
  });

  it('a decision that reaches a closed task is recorded as task-timed-out', async () => {
    const { ports, approvals } = await pending(new LocalTaskTokenWaits());
    const outcome = await decideApproval(ports, 'apr-1', { decision: 'approve' }, 'alice');
    expect(outcome).toMatchObject({ status: 200, approval: { callback: 'task-timed-out' } });
    expect((await approvals.getApproval('apr-1'))?.callback).toBe('task-timed-out');
  });

  it('no record read returns the task token', async () => {
    const { approvals } = await pending();
    expect(JSON.stringify([await approvals.getApproval('apr-1'), await approvals.listApprovals('pending')])).not.toContain('secret-token');
  });
});
