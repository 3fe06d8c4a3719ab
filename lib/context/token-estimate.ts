/**
 * A fast, deliberately pessimistic token count. No provider tokenizer is bundled (they differ, and the
 * OpenAI/Anthropic ones are large), so the budget code counts with this and leaves headroom: over-counting
 * costs a little context, under-counting gets the request rejected.
 *
 * English prose and JSON run at roughly 4 characters per token, so 3.5 over-counts them. What tokenizers
 * handle worst are ids: hex, UUIDs, base64, long numbers split into 2-3 characters per token, so a run of
 * word characters that holds a digit and is at least `idRunMinLength` long is counted at 2 characters per
 * token. Non-ASCII characters (CJK, emoji halves) count one token each.
 *
 * The count is additive over pieces split by anything outside an id run (newlines, commas, braces,
 * quotes), so the sum of the parts' counts is never less than the count of their concatenation; the
 * capping code relies on that to stay within budget without re-measuring the whole output.
 */
import type { ModelRequest } from '../model/port.ts';

const charsPerToken = 3.5;
const idCharsPerToken = 2;
const idRunMinLength = 8;

/** Characters that make up ids, numbers, hex and base64: [A-Za-z0-9+/=_-]. */
const isIdChar = (code: number): boolean =>
  (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 43 || code === 47 || code === 61 || code === 95 || code === 45;

export function estimateTokens(text: string): number {
  // One pass, no allocation: this runs over every line of 100,000-line logs.
  let plainChars = 0;
  let idChars = 0;
  let wideChars = 0;
  let runLength = 0;
  let runHasDigit = false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (isIdChar(code)) {
      runLength += 1;
      if (code >= 48 && code <= 57) runHasDigit = true;
      continue;
    }
    if (runLength > 0) {
      if (runHasDigit && runLength >= idRunMinLength) idChars += runLength;
      else plainChars += runLength;
      runLength = 0;
      runHasDigit = false;
    }
    if (code > 0x7f) wideChars += 1;
    else plainChars += 1;
  }
  if (runHasDigit && runLength >= idRunMinLength) idChars += runLength;
  else plainChars += runLength;
  return Math.ceil(plainChars / charsPerToken + idChars / idCharsPerToken + wideChars);
}

/** Per-message framing the providers add (role markers, tool-call ids); a few tokens each. */
const messageOverheadTokens = 4;

/** Tokens one message costs in a request; the eviction code subtracts these per message, so the sum must match. */
export function estimateMessageTokens(message: ModelRequest['messages'][number]): number {
  switch (message.role) {
    case 'user':
      return messageOverheadTokens + estimateTokens(message.content);
    case 'assistant':
      return (
        messageOverheadTokens +
        estimateTokens(message.content) +
        message.toolCalls.reduce((sum, call) => sum + messageOverheadTokens + estimateTokens(call.id) + estimateTokens(call.name) + estimateTokens(JSON.stringify(call.arguments) ?? ''), 0)
      );
    case 'tool':
      return messageOverheadTokens + estimateTokens(message.toolCallId) + estimateTokens(message.name) + estimateTokens(message.content);
  }
}

/** The whole request as the model reads it: system prompt, every message and the tool specs' JSON. */
export function estimateRequestTokens(request: ModelRequest): number {
  return (
    estimateTokens(request.system) +
    request.messages.reduce((sum, message) => sum + estimateMessageTokens(message), 0) +
    (request.tools.length > 0 ? estimateTokens(JSON.stringify(request.tools)) : 0)
  );
}
