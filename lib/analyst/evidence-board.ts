import { z } from 'zod';
import type { ChatMessage } from '../model/port.ts';
import { callFingerprint, canonicalJson } from '../tools/call-fingerprint.ts';

/**
 * Everything the analyst has learned so far, read back from the tool results in the
 * conversation (the masked view: the same text a hosted model reads). Unknown or malformed
 * results are skipped, never fatal.
 */

const serviceNode = z.object({
  name: z.string(),
  kind: z.string().optional(),
  dependsOn: z.array(z.string()).default([]),
  calledBy: z.array(z.string()).default([]),
});
const alarm = z.object({ name: z.string(), service: z.string(), state: z.string(), since: z.string().optional(), reason: z.string().optional() });
const change = z.object({ service: z.string(), timestamp: z.string(), kind: z.string(), summary: z.string(), actor: z.string().optional() });
const logLine = z.object({ timestamp: z.string(), service: z.string(), level: z.string(), message: z.string() });
const series = z.object({
  service: z.string(),
  name: z.string(),
  namespace: z.string().optional(),
  dimensions: z.record(z.string(), z.string()).optional(),
  unit: z.string().optional(),
  stat: z.string().optional(),
  periodSeconds: z.number().optional(),
  points: z.array(z.tuple([z.string(), z.number()])),
});
const traceSummary = z.object({
  service: z.string(),
  requests: z.number(),
  faults: z.number(),
  firstFault: z.string().optional(),
  errors: z.array(z.string()).default([]),
  downstream: z
    .array(z.object({ service: z.string(), calls: z.number(), p95Ms: z.number(), errors: z.number(), sampleError: z.string().optional() }))
    .default([]),
});
const runbook = z.object({ id: z.string(), title: z.string(), service: z.string().optional(), steps: z.array(z.string()), score: z.number().optional() });

export type ServiceNode = z.infer<typeof serviceNode>;
export type Alarm = z.infer<typeof alarm> & { ref: string };
export type Change = z.infer<typeof change> & { ref: string; at: number };
export type LogRecord = z.infer<typeof logLine> & { ref: string; at: number };
export type Series = z.infer<typeof series> & { ref: string };
export type TraceSummary = z.infer<typeof traceSummary> & { ref: string };
export type Runbook = z.infer<typeof runbook> & { ref: string };

const toolContent = z.object({ ref: z.string(), summary: z.string().optional(), data: z.unknown().optional(), error: z.string().optional() });

const listOf = <T extends z.ZodType>(schema: T, value: unknown): z.infer<T>[] =>
  Array.isArray(value) ? value.flatMap((item) => {
    const parsed = schema.safeParse(item);
    return parsed.success ? [parsed.data] : [];
  }) : [];

export interface EvidenceBoard {
  brief: string;
  /** Fingerprints (tool name + canonical arguments) of every call already made. */
  asked: Set<string>;
  /** Tools whose source said it has no data. */
  unavailable: Set<string>;
  services?: ServiceNode[];
  alarms: Alarm[];
  alarmsRef?: string;
  changes: Change[];
  logs: LogRecord[];
  series: Series[];
  traces: TraceSummary[];
  runbooks: Runbook[];
}


export const readEvidence = (messages: readonly ChatMessage[]): EvidenceBoard => {
  const board: EvidenceBoard = {
    brief: messages.find((message) => message.role === 'user')?.content ?? '',
    asked: new Set(),
    unavailable: new Set(),
    alarms: [],
    changes: [],
    logs: [],
    series: [],
    traces: [],
    runbooks: [],
  };
  const seenLogs = new Set<string>();
  const seenSeries = new Set<string>();
  const seenChanges = new Set<string>();
  for (const message of messages) {
    if (message.role === 'assistant') {
      for (const call of message.toolCalls) board.asked.add(callFingerprint(call.name, call.arguments));
      continue;
    }
    if (message.role !== 'tool') continue;
    let content: z.infer<typeof toolContent>;
    try {
      const parsed = toolContent.safeParse(JSON.parse(message.content));
      if (!parsed.success) continue;
      content = parsed.data;
    } catch {
      continue;
    }
    const data = (content.data ?? {}) as Record<string, unknown>;
    if (content.error !== undefined) continue;
    if (data.available === false) {
      board.unavailable.add(message.name);
      continue;
    }
    const { ref } = content;
    switch (message.name) {
      case 'get_dependencies': {
        const services = listOf(serviceNode, data.services);
        if (services.length > (board.services?.length ?? 0)) board.services = services;
        break;
      }
      case 'list_alarms':
        board.alarms = listOf(alarm, data.alarms).map((item) => ({ ...item, ref }));
        board.alarmsRef = ref;
        break;
      case 'list_changes':
        for (const item of listOf(change, data.changes)) {
          const key = `${item.service}|${item.timestamp}|${item.summary}`;
          if (seenChanges.has(key)) continue;
          seenChanges.add(key);
          board.changes.push({ ...item, ref, at: Date.parse(item.timestamp) });
        }
        break;
      case 'query_logs':
        for (const item of listOf(logLine, data.lines)) {
          const key = `${item.timestamp}|${item.service}|${item.message}`;
          if (seenLogs.has(key)) continue;
          seenLogs.add(key);
          board.logs.push({ ...item, ref, at: Date.parse(item.timestamp) });
        }
        break;
      case 'get_metrics':
        for (const item of listOf(series, data.series)) {
          const key = `${item.service}|${item.name}|${canonicalJson(item.dimensions ?? {})}|${item.stat ?? ''}|${item.periodSeconds ?? ''}`;
          if (seenSeries.has(key)) continue;
          seenSeries.add(key);
          board.series.push({ ...item, ref });
        }
        break;
      case 'get_traces':
        board.traces.push(...listOf(traceSummary, data.services).map((item) => ({ ...item, ref })));
        break;
      case 'search_runbooks':
        board.runbooks.push(...listOf(runbook, data.runbooks).map((item) => ({ ...item, ref })));
        break;
    }
  }
  board.logs.sort((a, b) => a.at - b.at);
  board.changes.sort((a, b) => a.at - b.at);
  return board;
};
