import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { memoryLoweredBy } from '../../lib/analyst/lowered-setting.ts';
import { at, boardFrom, linesFrom, series, sorted, step } from './board-builder.ts';

const START = '2026-08-04T09:00:00.000Z';
const lines = linesFrom(START);

const taskDefinition = (memory: string, previous: string, kind = 'config') => ({
  service: 'render-api',
  timestamp: at(START, -180),
  kind,
  summary: 'RegisterTaskDefinition render-api:41 (cost review)',
  details: { eventName: 'RegisterTaskDefinition', requestParameters: { family: 'render-api', memory }, previousRevision: { taskDefinition: 'render-api:40', memory: previous } },
});

/** An API whose tasks are killed for memory from minute 60 (the morning peak); its caller released at minute 50 and fails with it; its task memory was set three hours before. */
const peak = (memory: string, previous: string, kind = 'config') =>
  diagnose(
    boardFrom({
      brief: 'CloudWatch alarm "portal-5xx" is in ALARM',
      services: [
        { name: 'portal', kind: 'ecs', dependsOn: ['render-api'] },
        { name: 'render-api', kind: 'ecs', dependsOn: ['render-cache'] },
        { name: 'render-cache', kind: 'other', tags: { engine: 'redis 7.1' } },
      ],
      alarms: [{ name: 'portal-5xx', service: 'portal', state: 'ALARM', since: at(START, 66) }],
      changes: [taskDefinition(memory, previous, kind), { service: 'portal', timestamp: at(START, 50), kind: 'deploy', summary: 'portal 7.3.0 rolled out (copy changes)' }],
      metrics: [
        { service: 'render-api', name: 'MemoryUtilization', points: series(START, 120, step(58, 55, 98)) },
        { service: 'portal', name: 'HTTPCode_Target_5XX_Count', stat: 'Sum', points: series(START, 120, step(58, 0, 140)) },
      ],
      logs: sorted([
        ...lines('render-api', 0, 5, 24, 'INFO', (index) => `GET /render/${index} 200`),
        ...lines('render-api', 60, 4, 14, 'INFO', (index) => `ECS Task State Change: task/${index} lastStatus=STOPPED exitCode=137 reason="OutOfMemoryError: Container killed due to memory usage"`),
        ...lines('portal', 58, 3, 18, 'ERROR', () => 'GET /page 502: upstream render-api returned 502 Bad Gateway'),
      ]),
    }),
  ).draft;

describe('a memory limit lowered hours before a peak that the tasks then outgrow', () => {
  it('is the setting to revert, though a caller released just before: the lowered limit is named', () => {
    const draft = peak('1024', '2048');
    expect(draft.rootCause).toMatchObject({ service: 'render-api', category: 'config' });
    expect(draft.rootCause.summary).toContain('lowered its memory limit from 2048 to 1024');
    expect(draft.remediation[0]).toMatchObject({ action: 'revert-config', target: 'render-api' });
  });

  it('the limit goes back though the change shipped it as a release', () => {
    expect(peak('1024', '2048', 'deploy').remediation[0]).toMatchObject({ action: 'revert-config', target: 'render-api' });
  });

  it('a limit raised is no lowered limit, and does not outrank the caller’s release that came just before', () => {
    const draft = peak('4096', '2048');
    expect(draft.rootCause.summary).not.toContain('lowered its memory limit');
    expect(draft.rootCause.service).toBe('portal');
  });
});

describe('the memory limit a change lowered', () => {
  it('is read from the summary or from the new and previous settings in its details', () => {
    expect(memoryLoweredBy({ service: 'f', timestamp: START, kind: 'config', summary: 'UpdateFunctionConfiguration: MemorySize 1536 -> 512', at: 0, ref: 'E3' })).toEqual({ from: '1536', to: '512' });
    expect(memoryLoweredBy({ ...taskDefinition('1024', '2048'), at: 0, ref: 'E3' })).toEqual({ from: '2048', to: '1024' });
  });

  it('is none when the memory rose or no memory setting changed', () => {
    expect(memoryLoweredBy({ service: 'f', timestamp: START, kind: 'config', summary: 'UpdateFunctionConfiguration: MemorySize 512 -> 1536', at: 0, ref: 'E3' })).toBeUndefined();
    expect(memoryLoweredBy({ service: 'f', timestamp: START, kind: 'config', summary: 'timeout 30 -> 10', at: 0, ref: 'E3' })).toBeUndefined();
  });
});
