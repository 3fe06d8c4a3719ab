import type { TranscriptEvent } from './types.ts';

/** A tool result as the transcript keeps it; `data` is the tool's own output. */
export interface ToolResult {
  seq: number;
  at: string;
  name: string;
  ref: string;
  summary: string;
  data: Record<string, unknown> | undefined;
  error: string | undefined;
}

const record = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;

export const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

export const toolResultsOf = (events: readonly TranscriptEvent[]): ToolResult[] =>
  events.flatMap((event) => {
    const payload = record(event.payload);
    if (event.type !== 'tool.result' || !payload) return [];
    return [{ seq: event.seq, at: event.at, name: text(payload.name) ?? '', ref: text(payload.ref) ?? '', summary: text(payload.summary) ?? '', data: record(payload.data), error: text(payload.error) }];
  });

/** The items of one array field of each result of one tool, with the result they came from. */
export const itemsOf = (results: readonly ToolResult[], tool: string, field: string): { item: Record<string, unknown>; from: ToolResult }[] =>
  results
    .filter((result) => result.name === tool)
    .flatMap((from) => {
      const items = from.data?.[field];
      return Array.isArray(items) ? items.flatMap((item) => (record(item) ? [{ item: record(item)!, from }] : [])) : [];
    });

/** Evidence ref (`E3`) to the sequence number of the transcript event that holds it. */
export const evidenceEvents = (events: readonly TranscriptEvent[]): Map<string, number> =>
  new Map(toolResultsOf(events).filter((result) => result.ref !== '').map((result) => [result.ref, result.seq]));

export const payloadOf = (event: TranscriptEvent): Record<string, unknown> => record(event.payload) ?? {};
