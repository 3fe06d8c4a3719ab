import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Trigger } from '../../lib/domain/trigger.ts';
import { getMetricsContract } from '../../lib/tools/contracts/get-metrics.ts';
import { listAlarmsContract } from '../../lib/tools/contracts/list-alarms.ts';
import { implementTool, type ToolDefinition } from '../../lib/tools/tool.ts';
import { Toolbox } from '../../lib/tools/toolbox.ts';
import { verifyRecovery } from '../../lib/workflow/verify-recovery.ts';
import { BUNDLED_SCENARIOS_DIR, parseScenarioText } from '../../local/scenario-files.ts';

/** The bundled alarm: HTTPCode_Target_5XX_Count of the storefront's target group, ALARM at >= 25 a minute. */
const scenario = parseScenarioText(readFileSync(join(BUNDLED_SCENARIOS_DIR, 'bad-deploy-cascade.json'), 'utf8'), 'bad-deploy-cascade.json');
const trigger = scenario.trigger as Trigger;
const alarm = 'storefront-web-alb-target-5xx';
const dimensions = { LoadBalancer: 'app/prod-shop-public/7f3c9a21b4e6d580', TargetGroup: 'targetgroup/storefront-web/3d8e1f6a9c2b4701' };
const actionAt = new Date('2026-03-10T14:30:00Z');

/** The alarm in `state`, and its metric with these points (minute offsets from the action), as the tools would answer. */
const toolbox = (state: 'ALARM' | 'OK', points: [number, number][]) => {
  const asked: unknown[] = [];
  const tools = [
    implementTool(listAlarmsContract, { sideEffect: 'read-only', iamActions: [], run: async () => ({ summary: '1 alarm', data: { available: true as const, alarms: [{ name: alarm, service: 'storefront-web', state }] } }) }),
    implementTool(getMetricsContract, {
      sideEffect: 'read-only',
      iamActions: [],
      run: async (input) => {
        asked.push(input);
        const series = [
          { service: 'storefront-web', name: 'HTTPCode_Target_5XX_Count', namespace: 'AWS/ApplicationELB', dimensions: { ...dimensions, TargetGroup: 'targetgroup/other/1' }, points: [['2026-03-10T14:31:00.000Z', 999]] as [string, number][] },
          {
            service: 'storefront-web',
            name: 'HTTPCode_Target_5XX_Count',
            namespace: 'AWS/ApplicationELB',
            dimensions,
            points: points.map(([minutes, value]) => [new Date(actionAt.getTime() + minutes * 60_000).toISOString(), value] as [string, number]),
          },
        ];
        return { summary: 'series', data: { available: true as const, series } };
      },
    }),
  ] as ToolDefinition[];
  return { box: new Toolbox(tools), asked };
};

describe('verifying recovery after an approved action', () => {
  it('reads the alarm\'s own metric after the action: back within the threshold is recovered, even while the alarm still says ALARM', async () => {
    const { box, asked } = toolbox('ALARM', [[-2, 80], [-1, 60], [0, 12], [1, 3]]);
    const verification = await verifyRecovery(box, trigger, true, actionAt);
    expect(asked).toEqual([{ name: 'HTTPCode_Target_5XX_Count', sinceMinutes: 5 }]);
    expect(verification).toMatchObject({ alarm, state: 'ALARM', recovered: true, metric: { name: 'HTTPCode_Target_5XX_Count', threshold: 25, withinThreshold: true, latest: { at: '2026-03-10T14:31:00.000Z', value: 3 } } });
    expect(verification.summary).toBe(
      `alarm ${alarm} is still ALARM after the action; metric HTTPCode_Target_5XX_Count is back within the threshold: 3 at 2026-03-10T14:31:00.000Z (alarm when >= 25): the service recovered`,
    );
  });

  it('a metric still over the threshold after the action is not recovered', async () => {
    const verification = await verifyRecovery(toolbox('ALARM', [[0, 40], [1, 31]]).box, trigger, true, actionAt);
    expect(verification).toMatchObject({ recovered: false, metric: { withinThreshold: false, latest: { value: 31 } } });
    expect(verification.summary).toMatch(/still breaches the threshold: 31 .* \(alarm when >= 25\): the service has not recovered yet$/);
  });

  it('with no datapoint since the action, the alarm\'s state decides and the report says to re-check the metric', async () => {
    const verification = await verifyRecovery(toolbox('ALARM', [[-2, 80], [-1, 60]]).box, trigger, true, actionAt);
    expect(verification).toMatchObject({ recovered: false, metric: { withinThreshold: null } });
    expect(verification.metric?.latest).toBeUndefined();
    expect(verification.summary).toContain('has no datapoint since the action yet; re-check it after the next period');
    const cleared = await verifyRecovery(toolbox('OK', []).box, trigger, true, actionAt);
    expect(cleared).toMatchObject({ state: 'OK', recovered: true });
  });

  it('a recorded action or an investigation no alarm opened has nothing to verify', async () => {
    expect((await verifyRecovery(toolbox('OK', []).box, trigger, false, actionAt)).recovered).toBeNull();
    const question = { question: { text: 'is checkout slow?' } } as Trigger;
    expect(await verifyRecovery(toolbox('OK', []).box, question, true, actionAt)).toEqual({ recovered: null, summary: 'no alarm opened this investigation: there is no alarm to re-read' });
  });
});
