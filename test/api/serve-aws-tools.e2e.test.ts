import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OfflineAnalyst } from '../../lib/analyst/offline-analyst.ts';
import type { DynamoDbStore } from '../../lib/store/dynamodb-store.ts';
import { startLocalApiServer, type LocalApiServer } from '../../local/api-server.ts';
import { loadScenario } from '../../local/scenario-files.ts';
import { freshStore } from '../support/dynamodb.ts';

const scenario = loadScenario('bad-deploy-cascade');

/**
 * `sre-agent serve --tools aws --scenario FILE`: the API's investigations run the AWS tool code,
 * its SDK calls answered from the scenario's environment, not the replay tools.
 */
describe('the local API server with the AWS tools over a scenario', () => {
  let server: LocalApiServer;
  let store: DynamoDbStore;

  beforeAll(async () => {
    const table = await freshStore();
    store = table.store;
    server = await startLocalApiServer({ client: table.client, tableName: table.tableName, scenario, tools: 'aws', model: new OfflineAnalyst(), port: 0, env: {} });
  });

  afterAll(async () => {
    await server?.close();
  });

  it('investigates a posted alarm event with the AWS tools', async () => {
    if (!('cloudwatchAlarm' in scenario.trigger)) throw new Error('bad-deploy-cascade is expected to start from a CloudWatch alarm event');
    const posted = await fetch(`${server.url}/events`, { method: 'POST', body: JSON.stringify(scenario.trigger.cloudwatchAlarm), headers: { 'content-type': 'application/json' } });
    expect(posted.status).toBe(202);
    const { id } = (await posted.json()) as { id: string };

    let investigation: { status: string; finding: { rootCause: { service: string } } | null };
    const deadline = Date.now() + 120_000;
    do {
      await new Promise((resolve) => setTimeout(resolve, 300));
      investigation = (await (await fetch(`${server.url}/investigations/${id}`)).json()) as typeof investigation;
    } while (['queued', 'running'].includes(investigation.status) && Date.now() < deadline);
    expect(investigation.status).toBe('succeeded');
    expect(investigation.finding?.rootCause.service).toBe(scenario.truth?.rootCause?.service);

    const head = await store.get(id);
    expect(head?.toolSource).toMatchObject({ kind: 'aws', emulatedSnapshot: expect.stringMatching(/^env-/), accountId: scenario.environment.accountId });
    const transcript = (await (await fetch(`${server.url}/investigations/${id}/transcript?limit=500`)).json()) as {
      events: { type: string; payload: { name?: string; summary?: string } }[];
    };
    // Only the AWS get_dependencies says where its graph came from; the replay tool reads the recorded one.
    const graphs = transcript.events.filter((event) => event.type === 'tool.result' && event.payload.name === 'get_dependencies');
    expect(graphs.length).toBeGreaterThan(0);
    for (const graph of graphs) expect(graph.payload.summary).toMatch(/from (X-Ray|tags)/);
  }, 180_000);
});
