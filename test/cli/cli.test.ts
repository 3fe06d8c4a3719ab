import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';

const cli = fileURLToPath(new URL('../../bin/sre-agent.js', import.meta.url));
const scenarios = fileURLToPath(new URL('../../scenarios/', import.meta.url));

const run = async (...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> => {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [cli, ...args], { maxBuffer: 64 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
};

/** A scenario written by someone else: a PagerDuty trigger, few data sources, extra fields. */
const outsideScenario = {
  format: 'sre-scenario/v1',
  id: 'outside-team-queue-consumer',
  title: 'A consumer crashes on start-up',
  now: '2026-07-01T10:30:00Z',
  owner: 'someone-else',
  trigger: {
    pagerduty: {
      event: {
        id: '01DEN8ZTMG', event_type: 'incident.triggered', resource_type: 'incident', occurred_at: '2026-07-01T10:20:00Z',
        agent: { id: 'P1', type: 'service_reference' }, client: { name: 'Monitoring' },
        data: { id: 'Q1', type: 'incident', title: 'billing-worker is failing', service: { id: 'S1', summary: 'billing-worker', type: 'service_reference' }, urgency: 'high', status: 'triggered', extra: true },
      },
    },
  },
  environment: {
    services: [{ name: 'billing-worker', kind: 'ecs', dependsOn: ['billing-db'] }, { name: 'billing-db', kind: 'rds' }],
    logs: [
      ...Array.from({ length: 20 }, (_, minute) => ({ service: 'billing-worker', timestamp: `2026-07-01T09:${String(30 + minute).padStart(2, '0')}:00Z`, level: 'INFO', message: 'processed batch' })),
      ...Array.from({ length: 8 }, (_, minute) => ({ service: 'billing-worker', timestamp: `2026-07-01T10:${String(12 + minute).padStart(2, '0')}:00Z`, level: 'ERROR', message: `startup failed: missing environment variable BILLING_API_URL (attempt ${minute + 1})` })),
    ],
    changes: [{ service: 'billing-worker', timestamp: '2026-07-01T10:10:00Z', kind: 'config', summary: 'removed unused environment variables' }],
  },
  truth: { incident: true, rootCause: { service: 'billing-worker', category: 'config' } },
};

let workDir: string;
beforeAll(() => {
  workDir = mkdtempSync(join(tmpdir(), 'sre-agent-cli-'));
});

describe('sre-agent CLI', () => {
  it('investigates a bundled scenario, then lists it and prints its transcript from the same data dir', async () => {
    const dataDir = join(workDir, 'data');
    const investigated = await run('investigate', '--scenario', 'bad-deploy-cascade', '--json', '--data-dir', dataDir);
    expect(investigated.code, investigated.stderr).toBe(0);
    const result = JSON.parse(investigated.stdout) as { id: string; status: string; finding: { rootCause: { service: string } }; usage: { modelCalls: number } };
    expect(Object.keys(result).sort()).toEqual(['actions', 'approvals', 'finding', 'id', 'status', 'usage']);
    expect(result.status).toBe('succeeded');
    expect(result.finding.rootCause.service).toBe('inventory-api');
    expect(investigated.stderr).toContain('→ WriteFinding');

    const listed = await run('list', '--data-dir', dataDir);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain(result.id);

    const transcript = await run('transcript', result.id, '--json', '--data-dir', dataDir);
    expect(transcript.code, transcript.stderr).toBe(0);
    const { investigation, events } = JSON.parse(transcript.stdout) as { investigation: { id: string }; events: { seq: number; type: string; at: string; payload: unknown }[] };
    expect(investigation.id).toBe(result.id);
    expect(events.filter((event) => event.type === 'model.request')).toHaveLength(result.usage.modelCalls);
    expect(events.map((event) => event.type)).toEqual(expect.arrayContaining(['plan', 'model.request', 'model.response', 'tool.call', 'tool.result', 'finding']));

    const unknownId = await run('transcript', 'no-such-id', '--data-dir', dataDir);
    expect(unknownId.code).toBe(2);
    expect(unknownId.stderr).toContain('no investigation no-such-id');
  });

  it('accepts a scenario file written outside the team', async () => {
    const file = join(workDir, 'outside.json');
    writeFileSync(file, JSON.stringify(outsideScenario));
    const investigated = await run('investigate', '--scenario', file, '--json', '--data-dir', join(workDir, 'outside-data'));
    expect(investigated.code, investigated.stderr).toBe(0);
    const result = JSON.parse(investigated.stdout) as { finding: { rootCause: { service: string; category: string } } };
    expect(result.finding.rootCause).toMatchObject({ service: 'billing-worker', category: 'config' });
  });

  it('rejects an invalid scenario with exit code 2 and the JSON path of each problem', async () => {
    const file = join(workDir, 'invalid.json');
    writeFileSync(file, JSON.stringify({ ...outsideScenario, now: 'yesterday', trigger: { pagerduty: { event: {} } } }));
    const rejected = await run('investigate', '--scenario', file);
    expect(rejected.code).toBe(2);
    expect(rejected.stderr).toContain('$.now');
    expect(rejected.stderr).toContain('$.trigger.pagerduty.event.id');
  });

  it('rejects a missing file or unknown id with exit code 2, naming the bundled ids', async () => {
    const rejected = await run('investigate', '--scenario', 'no-such-scenario');
    expect(rejected.code).toBe(2);
    expect(rejected.stderr).toContain('bad-deploy-cascade');
    const notJson = join(workDir, 'broken.json');
    writeFileSync(notJson, '{ "format": ');
    const broken = await run('investigate', '--scenario', notJson);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/not valid JSON/);
  });

  it('exits the process with code 2 on a bad option of a subcommand, naming the option', async () => {
    const rejected = await run('investigate', '--scenario', 'bad-deploy-cascade', '--max-iterations', '0');
    expect(rejected.code).toBe(2);
    expect(rejected.stderr).toContain(`option '--max-iterations <n>' argument '0' is invalid`);
    expect(rejected.stdout).toBe('');
  });

  it('evaluates a directory, skipping invalid files, and writes the JSON report', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sre-agent-eval-'));
    copyFileSync(join(scenarios, 'latency-alarm-brief-spike.json'), join(dir, 'latency-alarm-brief-spike.json'));
    writeFileSync(join(dir, 'outside.json'), JSON.stringify(outsideScenario));
    writeFileSync(join(dir, 'broken.json'), JSON.stringify({ format: 'sre-scenario/v2' }));
    const out = join(dir, 'report.json');
    const evaluated = await run('eval', '--scenarios', dir, '--json', out);
    expect(evaluated.code, evaluated.stderr).toBe(0);
    expect(evaluated.stderr).toContain('skipped broken.json');
    expect(evaluated.stdout).toMatch(/TOTAL/);
    const report = JSON.parse(readFileSync(out, 'utf8')) as { scenarios: { id: string; score: number; success: boolean; modelCalls: number; toolCalls: number; tokens: number; costUsd: number; wallMs: number }[]; totals: { count: number; meanScore: number; successRate: number } };
    expect(report.scenarios.map((scenario) => scenario.id).sort()).toEqual(['latency-alarm-brief-spike', 'outside-team-queue-consumer']);
    for (const scenario of report.scenarios) expect(Object.keys(scenario)).toEqual(expect.arrayContaining(['score', 'success', 'modelCalls', 'toolCalls', 'tokens', 'costUsd', 'wallMs']));
    expect(report.totals).toMatchObject({ count: 2, meanScore: 1, successRate: 1 });
  });
});
