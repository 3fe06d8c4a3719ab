import { emptyBoard, recordResult, type EvidenceBoard } from '../../lib/analyst/evidence-board.ts';

/** Synthetic evidence, read through the same tool contracts as real tool results. */
export interface SyntheticEvidence {
  brief?: string;
  services?: { name: string; kind?: string; arn?: string; awsService?: string; tags?: Record<string, string>; dependsOn?: string[] }[];
  alarms?: { name: string; service: string; state: 'ALARM' | 'OK' | 'INSUFFICIENT_DATA'; since?: string; reason?: string }[];
  logs?: { service: string; timestamp: string; level: string; message: string }[];
  metrics?: { service: string; name: string; namespace?: string; dimensions?: Record<string, string>; unit?: string; stat?: string; periodSeconds?: number; points: [string, number][] }[];
  changes?: { service: string; timestamp: string; kind: string; summary: string; actor?: string; details?: Record<string, unknown> }[];
  traces?: { service: string; requests: number; faults: number; firstFault?: string; downstream: { service: string; calls: number; p95Ms: number; errors: number; sampleError?: string; firstErrorAt?: string }[] }[];
}

export const boardFrom = (evidence: SyntheticEvidence): EvidenceBoard => {
  const board = emptyBoard(evidence.brief ?? 'Scheduled health sweep');
  board.asked.add('survey');
  if (evidence.services) recordResult(board, 'get_dependencies', 'E1', { available: true, services: evidence.services.map((service) => ({ dependsOn: [], calledBy: [], ...service })) });
  if (evidence.alarms) recordResult(board, 'list_alarms', 'E2', { available: true, alarms: evidence.alarms });
  if (evidence.changes) recordResult(board, 'list_changes', 'E3', { available: true, changes: evidence.changes });
  if (evidence.logs) recordResult(board, 'query_logs', 'E4', { available: true, matched: evidence.logs.length, lines: evidence.logs, templates: [] });
  if (evidence.metrics) recordResult(board, 'get_metrics', 'E5', { available: true, series: evidence.metrics });
  if (evidence.traces) recordResult(board, 'get_traces', 'E6', { available: true, services: evidence.traces.map((trace) => ({ errors: [], ...trace })) });
  return board;
};

const MINUTE = 60_000;

/** An ISO timestamp `minutes` after `start`. */
export const at = (start: string, minutes: number): string => new Date(Date.parse(start) + minutes * MINUTE).toISOString();

/** One point a minute from `start`, the value from `valueAt(minute)`. */
export const series = (start: string, minutes: number, valueAt: (minute: number) => number): [string, number][] =>
  Array.from({ length: minutes }, (_, minute) => [at(start, minute), valueAt(minute)]);

/** Points from minute `from` to minute `to` after `start`, one every `every` minutes, the value from `valueAt(minute)`. */
export const pointsBetween = (start: string, from: number, to: number, every: number, valueAt: (minute: number) => number): [string, number][] =>
  Array.from({ length: Math.floor((to - from) / every) }, (_, index) => from + index * every).map((minute) => [at(start, minute), valueAt(minute)]);

/** A value that is `before` until minute `from` and `after` from then on. */
export const step = (from: number, before: number, after: number) => (minute: number): number => (minute < from ? before : after);

/** `count` log lines of one service from minute `from` after `start`, one every `every` minutes. */
export const linesFrom =
  (start: string) =>
  (service: string, from: number, every: number, count: number, level: string, message: (index: number) => string) =>
    Array.from({ length: count }, (_, index) => ({ service, timestamp: at(start, from + index * every), level, message: message(index) }));

/** Records in time order, as the tools return them. */
export const sorted = <T extends { timestamp: string }>(items: T[]): T[] => items.sort((a, b) => a.timestamp.localeCompare(b.timestamp));
