import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { awsRemediationIamActions, awsToolIamActions, awsToolSource } from '../../../integrations/aws/index.ts';
import { emulatedChanges } from '../../../integrations/aws/emulation/remediation.ts';
import { awsRemediationToolNames, awsToolNames, awsToolSettings } from '../../../integrations/aws/settings.ts';
import { RecordedSnapshots } from '../../../integrations/scenario/recorded-snapshots.ts';
import type { Investigation } from '../../../lib/domain/investigation.ts';
import type { Scenario } from '../../../lib/domain/scenario.ts';
import { remediationContracts } from '../../../lib/tools/contracts/remediation-contracts.ts';
import { actionsOf } from '../../../lib/workflow/actions-taken.ts';
import { DynamoDbApprovalStore } from '../../../lib/store/dynamodb-approval-store.ts';
import { RecordingNotifier } from '../../../lib/notify/recording-notifier.ts';
import { BUNDLED_SCENARIOS_DIR, parseScenarioText } from '../../../local/scenario-files.ts';
import { investigateScenario } from '../../../local/session.ts';
import { freshStore } from '../../support/dynamodb.ts';
import { ScriptedModel, finalAnswer } from '../../support/scripted-model.ts';

const bundled = (file: string): Scenario => parseScenarioText(readFileSync(join(BUNDLED_SCENARIOS_DIR, file), 'utf8'), file);

/** The AWS tool source over a scenario's recorded environment, as `investigate --tools aws --scenario` builds it. */
const emulatedToolbox = async (scenario: Scenario, settings: Record<string, unknown> = {}) => {
  const { store } = await freshStore();
  const snapshot = `env-${scenario.id}`;
  await store.putSnapshot(snapshot, { now: scenario.now, environment: scenario.environment });
  const source = awsToolSource({ store, settings: awsToolSettings.parse(settings), home: { region: 'us-east-1' } });
  const investigation = { toolSource: { kind: 'aws', emulatedSnapshot: snapshot, ...(scenario.environment.accountId ? { accountId: scenario.environment.accountId } : {}) } } as unknown as Investigation;
  // The environment the source's emulation answers from, whose recorded changes the tests read.
  const load = vi.spyOn(RecordedSnapshots.prototype, 'load');
  try {
    const loaded = await source.load(investigation);
    const environment = await load.mock.results[0]!.value;
    return { ...loaded, environment };
  } finally {
    load.mockRestore();
  }
};

describe('AWS remediation tools in the AWS tool source', () => {
  it('are opt-in on a live account: the default enables the read tools only, and enabling one needs the remediation role', () => {
    expect(awsToolSettings.parse({}).enabledTools).toEqual([...awsToolNames]);
    expect([...awsRemediationToolNames].sort()).toEqual(remediationContracts.map((contract) => contract.name).sort());
    const missingRole = awsToolSettings.safeParse({ enabledTools: ['list_alarms', 'ecs_set_desired_count'] });
    expect(missingRole.success).toBe(false);
    expect(missingRole.error?.issues[0]).toMatchObject({ path: ['remediation'], message: expect.stringMatching(/ecs_set_desired_count[\s\S]*remediation\.roleName/) });
    expect(awsRemediationIamActions(awsToolSettings.parse({}))).toEqual({ reads: [], changes: [] });
  });

  it('on a live account are offered only when enabled, and name the configured role in the investigated account', async () => {
    const { store } = await freshStore();
    const live = { toolSource: { kind: 'aws', accountId: '123456789012', region: 'us-east-1' } } as unknown as Investigation;
    const offered = async (settings: Record<string, unknown>) =>
      (await awsToolSource({ store, settings: awsToolSettings.parse(settings), home: { region: 'us-east-1', accountId: '123456789012' } }).load(live)).toolbox.tools.map((tool) => tool.name);
    expect((await offered({})).filter((name) => (awsRemediationToolNames as readonly string[]).includes(name))).toEqual([]);
    const enabled = await offered({ enabledTools: ['list_alarms', 'ecs_set_desired_count'], remediation: { roleName: 'sre-agent-remediation' } });
    expect(enabled).toEqual(['list_alarms', 'ecs_set_desired_count']);
  });

  it('split their declared actions: reads for the function, the one change per tool for the remediation role, none in the read tools\' grant', () => {
    const settings = awsToolSettings.parse({ enabledTools: [...awsToolNames, ...awsRemediationToolNames], remediation: { roleName: 'sre-agent-remediation' } });
    const { reads, changes } = awsRemediationIamActions(settings);
    expect(changes).toEqual(['ecs:UpdateService', 'lambda:PutFunctionConcurrency', 'lambda:UpdateAlias', 'ssm:StartAutomationExecution']);
    expect(reads).toEqual(expect.arrayContaining(['ecs:DescribeServices', 'ecs:ListTaskDefinitions', 'lambda:GetAlias', 'lambda:GetFunctionConcurrency']));
    expect(reads.filter((action) => changes.includes(action))).toEqual([]);
    expect(awsToolIamActions(settings).filter((action) => changes.includes(action))).toEqual([]);
  });

  it('over an emulated account, roll an ECS service back to the revision before its deploy through a session narrowed to that service', async () => {
    const scenario = bundled('bad-deploy-cascade.json');
    const { toolbox, now, environment } = await emulatedToolbox(scenario);
    const call = { id: 'rollback', name: 'ecs_rollback_task_definition', arguments: { cluster: 'prod', service: 'inventory-api' } };
    const described = await toolbox.describeCall(call, { now });
    expect(described.previousValue).toMatch(/task-definition\/inventory-api:413 \(would become .*inventory-api:412\)/);
    const outcome = await toolbox.executeApproved(call, { now });
    if (!outcome.ok) throw new Error(outcome.error);
    expect(outcome.summary).toBe('rolled inventory-api back from 413 to 412');
    expect(outcome.data).toMatchObject({ status: 'executed', previousValue: expect.stringMatching(/:413$/), newValue: expect.stringMatching(/:412$/) });
    const [assumed, update] = emulatedChanges(environment);
    expect(assumed?.command).toBe('sts:AssumeRole');
    expect(assumed?.input.RoleArn).toBe(`arn:aws:iam::${scenario.environment.accountId}:role/sre-agent-remediation`);
    const serviceArn = String((outcome.data as { target: string }).target);
    expect(JSON.parse(String(assumed?.input.Policy))).toEqual({ Version: '2012-10-17', Statement: [{ Effect: 'Allow', Action: 'ecs:UpdateService', Resource: serviceArn }] });
    expect(update).toEqual({ command: 'ecs:UpdateService', input: { cluster: 'prod', service: serviceArn, taskDefinition: expect.stringMatching(/inventory-api:412$/) } });
  });

  it('over an emulated account, point a Lambda alias back and change reserved concurrency, each through its own narrowed session', async () => {
    const scenario = bundled('image-resizer-deploy-timeouts.json');
    const { toolbox, now, environment } = await emulatedToolbox(scenario);
    const rollback = await toolbox.executeApproved({ id: 'a', name: 'lambda_rollback_alias', arguments: { functionName: 'image-resizer', alias: 'live' } }, { now });
    if (!rollback.ok) throw new Error(rollback.error);
    expect(rollback.summary).toBe('pointed image-resizer:live from version 42 back to 41');
    const concurrency = await toolbox.executeApproved({ id: 'c', name: 'lambda_set_reserved_concurrency', arguments: { functionName: 'image-resizer', reservedConcurrency: 5 } }, { now });
    if (!concurrency.ok) throw new Error(concurrency.error);
    expect(concurrency.data).toMatchObject({ previousValue: 'unreserved (the account pool)', newValue: '5' });
    expect(emulatedChanges(environment).map((change) => change.command)).toEqual(['sts:AssumeRole', 'lambda:UpdateAlias', 'sts:AssumeRole', 'lambda:PutFunctionConcurrency']);
    const policies = emulatedChanges(environment).filter((change) => change.command === 'sts:AssumeRole').map((change) => JSON.parse(String(change.input.Policy)).Statement[0].Action);
    expect(policies).toEqual(['lambda:UpdateAlias', 'lambda:PutFunctionConcurrency']);
  });

  it('over an emulated account, start an SSM Automation and hand back its execution id; a malformed document name is refused by the emulation', async () => {
    const { toolbox, now, environment } = await emulatedToolbox(bundled('bad-deploy-cascade.json'));
    const started = await toolbox.executeApproved({ id: 's', name: 'ssm_start_automation', arguments: { documentName: 'AWS-RestartEC2Instance', parameters: { InstanceId: ['i-0abc'] } } }, { now });
    if (!started.ok) throw new Error(started.error);
    expect((started.data as { newValue: string }).newValue).toMatch(/^execution [0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    const refused = await toolbox.executeApproved({ id: 't', name: 'ssm_start_automation', arguments: { documentName: 'x y' } }, { now });
    expect(refused.ok).toBe(false);
    expect(emulatedChanges(environment).filter((change) => change.command === 'ssm:StartAutomationExecution')).toHaveLength(1);
  });

  it('investigate --tools aws --approve all: the approved rollback runs through the emulation, is executed, and is verified', async () => {
    const scenario = bundled('bad-deploy-cascade.json');
    const { client, tableName, store } = await freshStore();
    const approvals = new DynamoDbApprovalStore({ client, tableName });
    const model = new ScriptedModel((_, turn) =>
      turn === 1
        ? { text: 'inventory-api v2.14.0 broke it: roll it back.', toolCalls: [{ id: 'rollback', name: 'ecs_rollback_task_definition', arguments: { cluster: 'prod', service: 'inventory-api' } }] }
        : { text: finalAnswer('inventory-api') },
    );
    const { investigationId } = await investigateScenario({ store, notifier: new RecordingNotifier(), approvals }, scenario, model, { tools: 'aws', approve: 'all', maxIterations: 3 });
    const events = await store.events(investigationId);
    expect(actionsOf(events)).toEqual([expect.objectContaining({ action: 'ecs_rollback_task_definition', status: 'executed', verification: expect.any(String) })]);
    const executed = events.find((event) => event.type === 'action.executed')?.payload as { summary: string };
    expect(executed.summary).toBe('rolled inventory-api back from 413 to 412');
  });
});
