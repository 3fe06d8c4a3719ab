import { createHash } from 'node:crypto';
import { z } from 'zod';
import { chatMessage, modelRequest, toolSpec, type ChatMessage, type ModelRequest } from '../model/port.ts';
import { messageOf } from './transcript-messages.ts';
import type { TranscriptEvent } from './transcript.ts';

/** Stands for a value recorded earlier in the same transcript: its content hash. */
const sameAs = z.object({ sameAs: z.string() });

/**
 * A `model.request` event's payload as stored: every system prompt, tool list and message the
 * transcript already holds (in the plan, a response, a tool result or an earlier request) is a
 * `{ sameAs: hash }` reference, so a conversation of n turns is stored once, not n times.
 */
export const recordedRequest = z.object({
  system: z.union([z.string(), sameAs]),
  tools: z.union([z.array(toolSpec), sameAs]),
  toolChoice: modelRequest.shape.toolChoice,
  messages: z.array(z.union([sameAs, chatMessage])),
});
export type RecordedRequest = z.infer<typeof recordedRequest>;

type Piece = string | ChatMessage | ModelRequest['tools'];
type EarlierEvent = Pick<TranscriptEvent, 'type' | 'payload'>;

// Rebuilt requests share message objects, so recording the next request rehashes nothing it already saw.
const objectHashes = new WeakMap<object, string>();

const hashOf = (piece: Piece): string => {
  const cached = typeof piece === 'object' ? objectHashes.get(piece) : undefined;
  if (cached) return cached;
  const hash = createHash('sha256').update(JSON.stringify(piece)).digest('hex').slice(0, 24);
  if (typeof piece === 'object') objectHashes.set(piece, hash);
  return hash;
};

/** A malformed event contributes no message; a request that refers to one fails to rebuild, naming it. */
const derivedMessage = (event: EarlierEvent): ChatMessage | undefined => {
  try {
    return messageOf(event);
  } catch (error) {
    if (error instanceof z.ZodError) return undefined;
    throw error;
  }
};

/** Everything an event puts in the transcript that a later request may repeat. */
const piecesOf = (event: EarlierEvent): Piece[] => {
  if (event.type === 'model.request') {
    // Whole requests, as rebuildRequests returned them (a payload of another shape holds nothing to refer to).
    const request = event.payload as Partial<ModelRequest>;
    return typeof request.system === 'string' && Array.isArray(request.tools) && Array.isArray(request.messages)
      ? [request.system, request.tools, ...request.messages]
      : [];
  }
  const plan = event.type === 'plan' ? (event.payload as { system?: unknown; tools?: unknown }) : undefined;
  const planPieces = plan && typeof plan.system === 'string' && Array.isArray(plan.tools) ? [plan.system, plan.tools as ModelRequest['tools']] : [];
  const message = derivedMessage(event);
  return message ? [...planPieces, message] : planPieces;
};

/** The request as it is stored: what the earlier events (whole, as the store returns them) hold becomes a reference. */
export const recordRequest = (request: ModelRequest, earlier: readonly EarlierEvent[]): RecordedRequest => {
  const known = new Set(earlier.flatMap(piecesOf).map(hashOf));
  const record = <Value extends Piece>(piece: Value): Value | { sameAs: string } => {
    const hash = hashOf(piece);
    if (known.has(hash)) return { sameAs: hash };
    known.add(hash);
    return piece;
  };
  return {
    system: record(request.system),
    tools: record(request.tools),
    toolChoice: request.toolChoice,
    messages: request.messages.map(record),
  };
};

/** The transcript with every recorded request rebuilt into exactly the request the model received. */
export const rebuildRequests = <Event extends TranscriptEvent>(events: readonly Event[]): Event[] => {
  const recorded = new Map<string, Piece>();
  return events.map((event) => {
    const stored = event.type === 'model.request' ? recordedRequest.safeParse(event.payload) : undefined;
    const resolve = <Value extends Piece>(piece: Value | { sameAs: string }): Value => {
      if (typeof piece !== 'object' || !('sameAs' in piece)) return piece;
      const value = recorded.get(piece.sameAs);
      if (value === undefined) throw new Error(`transcript event ${event.seq} (${event.type}) refers to ${piece.sameAs}, which no earlier event holds`);
      return value as Value;
    };
    const rebuilt = stored?.success
      ? { ...event, payload: { system: resolve(stored.data.system), messages: stored.data.messages.map(resolve), tools: resolve(stored.data.tools), toolChoice: stored.data.toolChoice } }
      : event;
    for (const piece of piecesOf(rebuilt)) recorded.set(hashOf(piece), piece);
    return rebuilt;
  });
};
