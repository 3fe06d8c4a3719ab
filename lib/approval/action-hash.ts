import { createHash } from 'node:crypto';
import { canonicalJson } from '../tools/call-fingerprint.ts';

/** The exact action: the tool and its real arguments. An approval covers this hash and nothing else. */
export const actionHash = (action: string, args: Record<string, unknown>): string =>
  createHash('sha256').update(canonicalJson({ action, arguments: args })).digest('hex');

/** One approval per investigation and tool call: a retried request finds the same record. */
export const approvalIdFor = (investigationId: string, toolCallId: string): string =>
  `apr-${createHash('sha256').update(`${investigationId}\u0000${toolCallId}`).digest('hex').slice(0, 24)}`;
