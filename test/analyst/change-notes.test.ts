import { describe, expect, it } from 'vitest';
import { changeNotesOf } from '../../lib/analyst/change-notes.ts';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import type { Change } from '../../lib/analyst/evidence-board.ts';
import { at, boardFrom, series } from './board-builder.ts';

const START = '2026-03-02T09:00:00.000Z';
const change = (details: Record<string, unknown> | undefined): Change => ({ service: 'feeds', timestamp: START, at: Date.parse(START), ref: 'E1', kind: 'deploy', summary: 'feeds v3.8.0 rolled out', ...(details ? { details } : {}) });

describe("a change's own notes", () => {
  it('are its changelog, its plan lines and the settings its diff moved', () => {
    expect(changeNotesOf(change({ changelog: ['memoize rendered feeds in-process', 'bump feedgen'] }))).toEqual(['memoize rendered feeds in-process', 'bump feedgen']);
    expect(changeNotesOf(change({ plan: ['~ subscription["titles"]: raw_message_delivery false -> true'] }))).toEqual(['~ subscription["titles"]: raw_message_delivery false -> true']);
    expect(changeNotesOf(change({ diff: { 'cache.ttlSeconds': [300, 60], 'reserved_concurrency': [null, 5] } }))).toEqual(['cache.ttlSeconds: 300 -> 60', 'reserved_concurrency: unset -> 5']);
  });
  it("are a plan's lines that add, remove or move something, not those that open or name a block", () => {
    const plan = ['~ resource "aws_s3_bucket_policy" "baseline" {', '    id     = "docs-site"', '  ~ policy = jsonencode(', '      ~ {', '          - {', '              - Action    = "s3:GetObject"', '              - Principal = { Service = "cloudfront.amazonaws.com" }', '          + Sid = "DenyInsecureTransport"', '  ~ timeout = 30 -> 10'];
    expect(changeNotesOf(change({ plan }))).toEqual(['              - Action    = "s3:GetObject"', '              - Principal = { Service = "cloudfront.amazonaws.com" }', '          + Sid = "DenyInsecureTransport"', '  ~ timeout = 30 -> 10']);
    expect(changeNotesOf(change({ plan: ['~ resource "aws_s3_bucket" "docs" {', '    id = "docs-site"'] }))).toHaveLength(2);
  });
  it('are the parameters a parameter-group change set, however it lists them', () => {
    const cloudTrail = { eventName: 'ModifyDBParameterGroup', requestParameters: { dBParameterGroupName: 'shop-mysql80', parameters: [{ parameterName: 'general_log', parameterValue: '1', applyMethod: 'immediate' }] } };
    expect(changeNotesOf(change(cloudTrail))).toEqual(['general_log: 1']);
    expect(changeNotesOf(change({ parameters: [{ name: 'general_log', from: '0', to: '1' }] }))).toEqual(['general_log: 0 -> 1']);
    expect(changeNotesOf(change({ parameters: { long_query_time: ['10', '0'], log_output: ['FILE', 'TABLE'] } }))).toEqual(['long_query_time: 10 -> 0', 'log_output: FILE -> TABLE']);
  });
  it('are the resource changes an apply lists and the switches and numbers a request set, not its names and ids', () => {
    expect(changeNotesOf(change({ resourceChanges: ['~ aws_lambda_event_source_mapping.label_requests (in-place) enabled: true -> false'] }))).toEqual([
      '~ aws_lambda_event_source_mapping.label_requests (in-place) enabled: true -> false',
    ]);
    const cloudTrail = { eventName: 'UpdateEventSourceMapping20150331', requestParameters: { uUID: 'b28e4a90-1c7d-4f63-a2e5-7d9c03f6e184', functionName: 'label-renderer', enabled: false, batchSize: 10 } };
    expect(changeNotesOf(change(cloudTrail))).toEqual(['enabled: false', 'batchSize: 10']);
  });
  it('are none when it carries only call parameters, and at most four', () => {
    expect(changeNotesOf(change({ eventName: 'UpdateService', requestParameters: { taskDefinition: 'feeds:88' } }))).toEqual([]);
    expect(changeNotesOf(change(undefined))).toEqual([]);
    expect(changeNotesOf(change({ changelog: ['a', 'b', 'c', 'd', 'e'] }))).toHaveLength(4);
  });
});

describe('a finding that blames a release', () => {
  it('says what the release changed, in its notes', () => {
    const board = boardFrom({
      services: [{ name: 'feeds', kind: 'ecs' }],
      alarms: [{ name: 'feeds-5xx', service: 'feeds', state: 'ALARM', since: at(START, 35) }],
      changes: [{ service: 'feeds', timestamp: at(START, 28), kind: 'deploy', summary: 'feeds v3.8.0 rolled out', details: { changelog: ['memoize rendered feeds in-process'] } }],
      logs: Array.from({ length: 12 }, (_, index) => ({ service: 'feeds', timestamp: at(START, 31 + index * 2), level: 'ERROR', message: 'render failed: TypeError: cannot read properties of undefined' })),
      metrics: [{ service: 'feeds', name: 'HTTPCode_Target_5XX_Count', points: series(START, 60, (minute) => (minute < 30 ? 0 : 40)) }],
    });
    expect(diagnose(board).draft.rootCause.summary).toContain('What it changed, in its own notes: "memoize rendered feeds in-process"');
  });
});
