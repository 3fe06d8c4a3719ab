import { describe, expect, it } from 'vitest';
import { failureKindsIn, failureKindsOfChange } from '../../lib/analyst/change-effects.ts';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import type { Change } from '../../lib/analyst/evidence-board.ts';
import { timeoutSettingOf } from '../../lib/analyst/lowered-setting.ts';
import type { Signal } from '../../lib/analyst/signals.ts';
import { at, boardFrom, linesFrom, series, sorted, step } from './board-builder.ts';

const START = '2026-11-17T12:00:00.000Z';
const lines = linesFrom(START);
const change = (summary: string, details?: Record<string, unknown>): Change => ({ service: 'edge', kind: 'config', summary, timestamp: START, at: Date.parse(START), ref: 'E3', ...(details ? { details } : {}) });

describe('the timeout a change wrote', () => {
  it('is read from the request it made, or from a summary that shows the new value', () => {
    expect(timeoutSettingOf(change('ModifyLoadBalancerAttributes edge', { attributes: [{ key: 'idle_timeout.timeout_seconds', value: '30' }] }))).toEqual({ name: 'idle_timeout.timeout_seconds', value: '30' });
    expect(timeoutSettingOf(change('PutParameter', { requestParameters: { name: '/roster/prod/timeout-ms', value: '400' } }))).toEqual({ name: '/roster/prod/timeout-ms', value: '400' });
    expect(timeoutSettingOf(change('orders client read_timeout 30 -> 5'))).toEqual({ name: 'read_timeout', value: '5' });
  });

  it('can cut off requests, which is what a gateway 504, a closed connection or an aborted call complain about', () => {
    expect(failureKindsOfChange(change('ModifyLoadBalancerAttributes edge', { attributes: [{ key: 'idle_timeout.timeout_seconds', value: '30' }] }))).toContain('cut off');
    expect(failureKindsOfChange(change('ModifyLoadBalancerAttributes edge', { attributes: [{ key: 'deletion_protection.enabled', value: 'true' }] }))).not.toContain('cut off');
    const complaint = (text: string): Signal => ({ service: 'api', kind: 'errors', at: Date.parse(START), strength: 1, ongoing: true, substantial: true, ref: 'E4', description: '', text });
    for (const text of ['writing the response failed: write EPIPE (client closed connection)', 'HTTPCode_ELB_504_Count', 'POST /v2/batch aborted after 400ms (attempt 3/3)']) {
      expect(failureKindsIn([complaint(text)]), text).toContain('cut off');
    }
  });

  it('is not a setting the summary says was left alone, nor how long a queued message stays hidden', () => {
    expect(timeoutSettingOf(change('UpdateFunctionConfiguration: MemorySize 512 -> 1024, environment IDV_TIMEOUT_MS 9500 (unchanged)', { memorySize: 1024 }))).toBeUndefined();
    expect(timeoutSettingOf(change('SetQueueAttributes VisibilityTimeout 60 -> 120'))).toBeUndefined();
  });
});

/** A load balancer in front of an export service; the balancer's attributes change at minute 60, the service's release at minute 30. */
const exports = (balancerChange: { summary: string; details?: Record<string, unknown> }) =>
  boardFrom({
    brief: 'Large exports fail with 504 Gateway Time-out since this afternoon. Did the export-service release make them slower?',
    services: [
      { name: 'exports-alb', kind: 'elb', dependsOn: ['export-service'] },
      { name: 'export-service', kind: 'ecs' },
    ],
    changes: [
      { service: 'export-service', kind: 'deploy', summary: 'export-service 2.8.0 (new CSV columns)', timestamp: at(START, 30) },
      { service: 'exports-alb', kind: 'config', timestamp: at(START, 60), ...balancerChange },
    ],
    metrics: [
      { service: 'exports-alb', name: 'HTTPCode_ELB_504_Count', points: series(START, 240, step(62, 0, 6)) },
      // The longest requests now end at the balancer's timeout.
      { service: 'export-service', name: 'TargetResponseTime', points: series(START, 240, step(62, 110, 30)) },
    ],
    logs: sorted([
      ...lines('export-service', 0, 3, 80, 'INFO', (index) => `export EXP-${index} streamed in ${(index % 9) + 1}.2s`),
      ...lines('export-service', 62, 8, 22, 'WARN', (index) => `export EXP-${900 + index} finished in 52s, but writing the response failed: write EPIPE (client closed connection)`),
    ]),
  });

describe('a load balancer whose idle timeout was cut', () => {
  it('is the root: the timeout it wrote cuts off the long requests, and is reverted', () => {
    const { draft } = diagnose(exports({ summary: 'ModifyLoadBalancerAttributes exports-alb', details: { attributes: [{ key: 'idle_timeout.timeout_seconds', value: '30' }] } }));
    expect(draft.rootCause).toMatchObject({ service: 'exports-alb', category: 'config' });
    expect(draft.rootCause.summary).toContain('idle_timeout.timeout_seconds set to 30');
    expect(draft.remediation[0]).toMatchObject({ action: 'revert-config', target: 'exports-alb' });
  });

  it('is not blamed for cut-off requests by a change that wrote no timeout', () => {
    expect(diagnose(exports({ summary: 'ModifyLoadBalancerAttributes exports-alb', details: { attributes: [{ key: 'routing.http.drop_invalid_header_fields.enabled', value: 'true' }] } })).draft.rootCause.summary).not.toContain('A timeout of exports-alb changed');
  });
});
