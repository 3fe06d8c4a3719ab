import { z } from 'zod';
import { MIN_ONSET_POINTS } from '../analysis/onset.ts';
import { withoutOmissionMarkers } from '../context/index.ts';
import type { ChatMessage } from '../model/port.ts';
import { callFingerprint, canonicalJson } from '../tools/call-fingerprint.ts';
import {
  contractNamed,
  getDependenciesContract,
  getMetricsContract,
  getTracesContract,
  listAlarmsContract,
  listChangesContract,
  queryLogsContract,
  searchRunbooksContract,
} from '../tools/contracts/index.ts';
import type { AlarmSummary } from '../tools/contracts/list-alarms.ts';
import type { ChangeSummary } from '../tools/contracts/list-changes.ts';
import type { LogLine } from '../tools/contracts/query-logs.ts';
import type { MetricSeriesSummary } from '../tools/contracts/get-metrics.ts';
import type { TraceServiceSummary } from '../tools/contracts/get-traces.ts';
import type { RunbookMatch } from '../tools/contracts/search-runbooks.ts';
import type { ServiceNode } from '../tools/contracts/get-dependencies.ts';

/**
 * Everything the analyst has learned so far, read back from the tool results in the conversation
 * (the masked view: the same text a hosted model reads). Each result is read through its tool's
 * contract; one that does not fit is listed as unreadable, never silently dropped.
 */

export type { ServiceNode };
export type Alarm = AlarmSummary & { ref: string };
export type Change = ChangeSummary & { ref: string; at: number };
export type LogRecord = LogLine & { ref: string; at: number };
/** `history`: the same series read again further back (thinned), kept beside the first, finer reading. */
export type Series = MetricSeriesSummary & { ref: string; history?: MetricSeriesSummary['points'] };
export type TraceSummary = TraceServiceSummary & { ref: string };
export type Runbook = RunbookMatch & { ref: string };

export interface UnreadableResult {
  ref: string;
  tool: string;
  problem: string;
}

export interface EvidenceBoard {
  brief: string;
  /** Fingerprints (tool name + canonical arguments) of every call already made. */
  asked: Set<string>;
  /** Tools whose source said it has no data. */
  unavailable: Set<string>;
  /** Results that broke their tool's contract: what the analysis had to do without. */
  unreadable: UnreadableResult[];
  services?: ServiceNode[];
  alarms: Alarm[];
  alarmsRef?: string;
  changes: Change[];
  logs: LogRecord[];
  series: Series[];
  /** Series a capped metric result left out, as `service name`: they can be asked for by service. */
  omittedSeries: Set<string>;
  traces: TraceSummary[];
  runbooks: Runbook[];
}

export const emptyBoard = (brief: string): EvidenceBoard => ({
  brief,
  asked: new Set(),
  unavailable: new Set(),
  unreadable: [],
  alarms: [],
  changes: [],
  logs: [],
  series: [],
  omittedSeries: new Set(),
  traces: [],
  runbooks: [],
});

const addUnique = <T>(target: T[], items: readonly T[], keyOf: (item: T) => string): void => {
  const seen = new Set(target.map(keyOf));
  for (const item of items) {
    const key = keyOf(item);
    if (seen.has(key)) continue;
    seen.add(key);
    target.push(item);
  }
};

/**
 * Adds one tool result, read through its contract. Results of tools without a contract carry no
 * evidence the analyst reads (they are the model's own business); a pointer to an earlier result
 * (a repeated call) adds nothing new.
 */
export const recordResult = (board: EvidenceBoard, tool: string, ref: string, data: unknown): void => {
  const contract = contractNamed(tool);
  if (!contract || (typeof data === 'object' && data !== null && 'repeatOf' in data)) return;
  const parsed = contract.output.safeParse(withoutOmissionMarkers(data));
  if (!parsed.success) {
    board.unreadable.push({ ref, tool, problem: z.prettifyError(parsed.error).split('\n').slice(0, 3).join(' ') });
    return;
  }
  const output = parsed.data as { available?: boolean } & Record<string, unknown>;
  if (output.available === false) {
    board.unavailable.add(tool);
    return;
  }
  switch (tool) {
    case getDependenciesContract.name: {
      // A service map's edges have no order (X-Ray lists them as it likes): reading them sorted keeps the analysis independent of it.
      const services = (output.services as ServiceNode[]).map((node) => ({ ...node, dependsOn: [...node.dependsOn].sort(), calledBy: [...node.calledBy].sort() }));
      if (services.length > (board.services?.length ?? 0)) board.services = services;
      break;
    }
    case listAlarmsContract.name:
      board.alarms = (output.alarms as AlarmSummary[]).map((item) => ({ ...item, ref }));
      board.alarmsRef = ref;
      break;
    case listChangesContract.name:
      addUnique(board.changes, (output.changes as ChangeSummary[]).map((item) => ({ ...item, ref, at: Date.parse(item.timestamp) })), (item) =>
        `${item.service}|${item.timestamp}|${item.summary}`,
      );
      break;
    case queryLogsContract.name:
      addUnique(board.logs, (output.lines as LogLine[]).map((item) => ({ ...item, ref, at: Date.parse(item.timestamp) })), (item) =>
        `${item.timestamp}|${item.service}|${item.message}`,
      );
      break;
    case getMetricsContract.name: {
      const keyOf = (item: MetricSeriesSummary) => `${item.service}|${item.name}|${canonicalJson(item.dimensions ?? {})}|${item.stat ?? ''}|${item.periodSeconds ?? ''}`;
      const fresh = (output.series as MetricSeriesSummary[]).map((item) => ({ ...item, ref }));
      // A series read again keeps its first reading; the board holds one series per key (addUnique).
      const knownByKey = new Map(board.series.map((series) => [keyOf(series), series]));
      for (const item of fresh) {
        const known = knownByKey.get(keyOf(item));
        if (!known) continue;
        // Read again with earlier days (compareDaysBefore), it gains those days, once.
        if (item.earlierDays && !known.earlierDays) known.earlierDays = item.earlierDays;
        // Read again from further back, it keeps its finer reading and gains the longer one as its history;
        // a first reading too short to show a change (a few coarse points) gives way to the longer one.
        if (item.points.length > 0 && (known.points.length === 0 || item.points[0]![0] < known.points[0]![0])) {
          if (known.points.length < MIN_ONSET_POINTS && item.points.length > known.points.length) known.points = item.points;
          else known.history = item.points;
        }
      }
      addUnique(board.series, fresh, keyOf);
      const omitted = (data as { omittedSeries?: unknown }).omittedSeries;
      if (Array.isArray(omitted)) for (const name of omitted) if (typeof name === 'string') board.omittedSeries.add(name);
      break;
    }
    case getTracesContract.name:
      board.traces.push(...(output.services as TraceServiceSummary[]).map((item) => ({ ...item, ref })));
      break;
    case searchRunbooksContract.name:
      board.runbooks.push(...(output.runbooks as RunbookMatch[]).map((item) => ({ ...item, ref })));
      break;
  }
  board.logs.sort((a, b) => a.at - b.at);
  board.changes.sort((a, b) => a.at - b.at);
};

const toolContent = z.object({
  ref: z.string(),
  summary: z.string().optional(),
  data: z.unknown().optional(),
  error: z.string().optional(),
  /** A result evicted from the context to save room: the model refetches it if it needs it. */
  evicted: z.boolean().optional(),
});

/** The board from a conversation: the brief, every call asked, and every tool result read through its contract. */
export const readEvidence = (messages: readonly ChatMessage[]): EvidenceBoard => {
  const board = emptyBoard(messages.find((message) => message.role === 'user')?.content ?? '');
  for (const message of messages) {
    if (message.role === 'assistant') {
      for (const call of message.toolCalls) board.asked.add(callFingerprint(call.name, call.arguments));
      continue;
    }
    if (message.role !== 'tool') continue;
    let content: z.infer<typeof toolContent>;
    try {
      content = toolContent.parse(JSON.parse(message.content));
    } catch (error) {
      board.unreadable.push({ ref: '?', tool: message.name, problem: `the result is not a tool result: ${error instanceof Error ? error.message.slice(0, 200) : String(error)}` });
      continue;
    }
    if (content.error !== undefined || content.evicted === true) continue;
    recordResult(board, message.name, content.ref, content.data);
  }
  return board;
};
