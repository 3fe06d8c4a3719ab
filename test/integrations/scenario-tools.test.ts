import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scenarioTools } from '../../integrations/scenario/index.ts';
import type { Environment } from '../../lib/domain/scenario.ts';
import { Toolbox } from '../../lib/tools/toolbox.ts';
import { BUNDLED_SCENARIOS_DIR, parseScenarioText } from '../../local/scenario-files.ts';
import { remediationContracts } from '../../lib/tools/contracts/remediation-contracts.ts';

const now = new Date('2026-04-06T04:10:00Z');
const environment: Environment = {
  services: [
    { name: 'web', kind: 'ecs', dependsOn: ['orders'] },
    { name: 'orders', kind: 'ecs', dependsOn: ['inventory'] },
    { name: 'inventory', kind: 'ecs', dependsOn: ['inventory-key'] },
    { name: 'inventory-key', kind: 'other', arn: 'arn:aws:kms:us-east-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab' },
    { name: 'billing', kind: 'lambda' },
  ],
  logs: [
    { service: 'inventory', timestamp: '2026-04-06T04:00:10Z', level: 'FATAL', message: 'migration 0042 failed' },
    { service: 'orders', timestamp: '2026-04-06T04:01:00Z', level: 'ERROR', message: 'GET inventory 500 after 31ms' },
    { service: 'orders', timestamp: '2026-04-06T04:02:00Z', level: 'ERROR', message: 'GET inventory 500 after 45ms' },
    { service: 'orders', timestamp: '2026-04-06T04:03:00Z', level: 'INFO', message: 'healthy' },
    { service: 'orders', timestamp: '2026-04-06T04:30:00Z', level: 'ERROR', message: 'from the future' },
  ],
  metrics: [
    { service: 'orders', name: 'Errors', points: [['2026-04-06T04:00:00Z', 0], ['2026-04-06T04:05:00Z', 9], ['2026-04-06T04:20:00Z', 99]] },
  ],
  changes: [
    { service: 'inventory', timestamp: '2026-04-06T03:58:00Z', kind: 'deploy', summary: 'v1.8.3 rolled out' },
    { service: 'billing', timestamp: '2026-04-06T04:15:00Z', kind: 'config', summary: 'after now' },
  ],
  runbooks: [{ id: 'rb-1', title: 'Failed schema migration', service: 'inventory', match: ['migration'], steps: ['Roll back'] }],
};

const toolbox = new Toolbox(scenarioTools(environment, now));
const run = async (name: string, args: Record<string, unknown> = {}) => {
  const outcome = await toolbox.execute({ id: 'c1', name, arguments: args }, { now });
  if (!outcome.ok) throw new Error(outcome.error);
  return outcome.data as Record<string, unknown>;
};

describe('scenario tools', () => {
  it('declares every investigation tool read-only and every remediation tool mutating, each with a JSON Schema for its input', () => {
    const remediation = new Set(remediationContracts.map((contract) => contract.name));
    expect(toolbox.tools.map((tool) => tool.sideEffect)).toEqual(toolbox.tools.map((tool) => (remediation.has(tool.name) ? 'mutating' : 'read-only')));
    expect(toolbox.tools.filter((tool) => remediation.has(tool.name))).toHaveLength(remediation.size);
    for (const spec of toolbox.specs()) expect(spec.inputSchema).toMatchObject({ type: 'object' });
  });

  it('never returns data after the incident clock', async () => {
    const logs = await run('query_logs', { sinceMinutes: 600 });
    expect((logs.lines as { message: string }[]).map((line) => line.message)).not.toContain('from the future');
    const changes = await run('list_changes');
    expect((changes.changes as { summary: string }[]).map((change) => change.summary)).toEqual(['v1.8.3 rolled out']);
    const metrics = await run('get_metrics', { service: 'orders' });
    expect((metrics.series as { points: unknown[] }[])[0]?.points).toHaveLength(2);
  });

  it('filters logs by service, level and text and merges templates', async () => {
    const logs = await run('query_logs', { service: 'ORDERS', minLevel: 'ERROR', contains: 'inventory' });
    expect(logs.matched).toBe(2);
    expect((logs.templates as { count: number }[])[0]?.count).toBe(2);
  });

  it('walks the dependency graph from a service', async () => {
    const graph = await run('get_dependencies', { service: 'orders' });
    expect((graph.services as { name: string }[]).map((service) => service.name).sort()).toEqual(['inventory', 'inventory-key', 'orders', 'web']);
    const inventory = (graph.services as { name: string; calledBy: string[] }[]).find((service) => service.name === 'inventory');
    expect(inventory?.calledBy).toEqual(['orders']);
    // The AWS service its ARN names: resources of one service share its account-wide quotas.
    const key = (graph.services as { name: string; awsService?: string }[]).find((service) => service.name === 'inventory-key');
    expect(key?.awsService).toBe('kms');
    expect((graph.services as { name: string; awsService?: string }[]).find((service) => service.name === 'orders')?.awsService).toBeUndefined();
  });

  it('says "no data" for a missing source instead of failing', async () => {
    expect(await run('list_alarms')).toEqual({ available: false });
    expect(await run('get_traces')).toMatchObject({ available: false });
  });

  it('finds runbooks by symptom words', async () => {
    const found = await run('search_runbooks', { query: 'schema migration failed' });
    expect((found.runbooks as { id: string }[]).map((runbook) => runbook.id)).toEqual(['rb-1']);
  });

  it('turns bad arguments into an error the model can read', async () => {
    const outcome = await toolbox.execute({ id: 'c2', name: 'query_logs', arguments: { limit: -1 } }, { now });
    expect(outcome).toMatchObject({ ok: false });
    expect(!outcome.ok && outcome.error).toMatch(/limit/);
    expect(await toolbox.execute({ id: 'c3', name: 'drop_table', arguments: {} }, { now })).toMatchObject({ ok: false });
  });

  it('analyze_incident summarizes the analyzers for hosted models', async () => {
    const bundled = parseScenarioText(readFileSync(join(BUNDLED_SCENARIOS_DIR, 'bad-deploy-cascade.json'), 'utf8'), 'bad-deploy-cascade');
    const bundledNow = new Date(bundled.now);
    const tools = new Toolbox(scenarioTools(bundled.environment, bundledNow));
    const outcome = await tools.execute({ id: 'a1', name: 'analyze_incident', arguments: { alertingService: 'storefront-web' } }, { now: bundledNow });
    expect(outcome.ok).toBe(true);
    const data = (outcome as { data: { incident: boolean; likelyOrigin: string; suspectChange: { summary: string } | null; strongestSignals: unknown[] } }).data;
    expect(data).toMatchObject({ incident: true, likelyOrigin: 'inventory-api' });
    expect(data.suspectChange?.summary).toMatch(/v2\.14\.0/);
    expect(data.strongestSignals.length).toBeGreaterThan(0);
    expect(tools.sideEffectOf('analyze_incident')).toBe('read-only');
  });

  it('dates a failed call in a trace its caller survived by that trace (no fault dates it)', async () => {
    const traced: Environment = {
      ...environment,
      traces: [
        { service: 'orders', timestamp: '2026-04-06T04:03:00Z', durationMs: 3010, fault: false, segments: [{ service: 'inventory', durationMs: 3000, error: 'timeout after 3000 ms' }] },
        { service: 'orders', timestamp: '2026-04-06T04:02:00Z', durationMs: 3010, fault: false, segments: [{ service: 'inventory', durationMs: 3000, error: 'timeout after 3000 ms' }] },
        { service: 'orders', timestamp: '2026-04-06T04:01:00Z', durationMs: 40, fault: false, segments: [{ service: 'inventory', durationMs: 30 }] },
      ],
    };
    const tools = new Toolbox(scenarioTools(traced, now));
    const traces = await tools.execute({ id: 'a1', name: 'get_traces', arguments: {} }, { now });
    expect((traces as { data: { services: { firstFault?: string; downstream: { firstErrorAt?: string }[] }[] } }).data.services[0]).toMatchObject({ downstream: [{ firstErrorAt: '2026-04-06T04:02:00Z' }] });
    expect((traces as { data: { services: { firstFault?: string }[] } }).data.services[0]?.firstFault).toBeUndefined();
    const outcome = await tools.execute({ id: 'a2', name: 'analyze_incident', arguments: { alertingService: 'orders' } }, { now });
    expect(outcome.ok).toBe(true);
  });
});
