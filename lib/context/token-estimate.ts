/**
 * Token counts for the context budget. For OpenAI-family models `tokenCounterFor` returns the real
 * tokenizer (js-tiktoken, o200k_base or cl100k_base). For the others (Anthropic, Bedrock models) no
 * tokenizer is public, so the budget counts with `estimateTokens`, a fast, deliberately pessimistic
 * estimate that leaves headroom: over-counting costs a little context, under-counting gets the request
 * rejected. test/context/token-estimate.test.ts checks it against the tokenizer on log lines and JSON
 * tool results.
 *
 * The estimate is additive over pieces split by anything outside an id run (newlines, commas, braces,
 * quotes), so the sum of the parts' counts is never less than the count of their concatenation; the
 * capping code relies on that to stay within budget without re-measuring the whole output.
 */
import type { Tiktoken } from 'js-tiktoken/lite';
import type { ModelRequest } from '../model/port.ts';

/** Character classes, by ASCII code; everything above 0x7f is WIDE. */
const WIDE = 0;
const DIGIT = 1;
const LETTER = 2;
/** `+ / = _ -`: they join letters and digits into ids, base64 and timestamps. */
const ID_JOINER = 3;
const SPACE = 4;
const PUNCTUATION = 5;
const classes = new Uint8Array(128).map((_, code) =>
  code >= 48 && code <= 57 ? DIGIT
  : (code >= 65 && code <= 90) || (code >= 97 && code <= 122) ? LETTER
  : code === 43 || code === 47 || code === 61 || code === 95 || code === 45 ? ID_JOINER
  : code === 32 || code === 9 || code === 10 || code === 13 ? SPACE
  : PUNCTUATION,
);
const classOf = (code: number): number => (code > 0x7f ? WIDE : classes[code]!);
const isIdChar = (kind: number): boolean => kind === DIGIT || kind === LETTER || kind === ID_JOINER;

/** Calibrated against o200k_base and cl100k_base on scenario logs and JSON tool results (see the test). */
const wordCharsPerToken = 5;
const punctuationCharsPerToken = 2;
const idLetterCharsPerToken = 2;
const digitsPerToken = 3;
const idRunMinLength = 8;

/**
 * Counts the way the tokenizers cut text: digits in groups of at most three; a word (a run of
 * letters) about five characters a token; punctuation (JSON's `":"`, `","`) two. In an id (a run of
 * at least `idRunMinLength` letters, digits and `+/=_-` that holds a digit: hex, UUIDs, base64,
 * timestamps) every switch between letters, digits and joiners starts a token. A single space rides
 * with the next word; other whitespace costs a token per four characters. Non-ASCII characters
 * count one token each.
 */
export function estimateTokens(text: string): number {
  // One pass, no allocation: this runs over every line of 100,000-line logs. A piece is a run of one
  // class; the pieces of a run of id characters are priced both ways until the run ends and says
  // whether it was an id.
  let tokens = 0;
  let runLength = 0;
  let runHasDigit = false;
  let runAsId = 0;
  let runAsWords = 0;
  let pieceKind = -1;
  let pieceLength = 0;
  let pieceFirst = 0;
  const endPiece = () => {
    switch (pieceKind) {
      case DIGIT: {
        const cost = Math.ceil(pieceLength / digitsPerToken);
        runAsId += cost;
        runAsWords += cost;
        break;
      }
      case LETTER:
        runAsId += Math.ceil(pieceLength / idLetterCharsPerToken);
        runAsWords += Math.ceil(pieceLength / wordCharsPerToken);
        break;
      case ID_JOINER:
        runAsId += pieceLength;
        runAsWords += Math.ceil(pieceLength / punctuationCharsPerToken);
        break;
      case PUNCTUATION:
        tokens += Math.ceil(pieceLength / punctuationCharsPerToken);
        break;
      case SPACE:
        if (pieceLength > 1 || pieceFirst !== 32) tokens += Math.ceil(pieceLength / 4);
        break;
      case WIDE:
        tokens += pieceLength;
        break;
    }
  };
  const endRun = () => {
    tokens += runHasDigit && runLength >= idRunMinLength ? runAsId : runAsWords;
    runLength = 0;
    runHasDigit = false;
    runAsId = 0;
    runAsWords = 0;
  };
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    const kind = code > 0x7f ? WIDE : classes[code]!;
    if (kind !== pieceKind) {
      endPiece();
      if (!isIdChar(kind) && runLength > 0) endRun();
      pieceKind = kind;
      pieceLength = 0;
      pieceFirst = code;
    }
    pieceLength += 1;
    if (isIdChar(kind)) {
      runLength += 1;
      if (kind === DIGIT) runHasDigit = true;
    }
  }
  endPiece();
  if (runLength > 0) endRun();
  return tokens;
}

/** Counts the tokens of a text for one model. */
export type TokenCounter = (text: string) => number;

type OpenAiEncoding = 'o200k_base' | 'cl100k_base';

/** OpenAI model ids (also behind Bedrock's `openai.` prefix) by family; the first match wins. */
const openAiEncodings: readonly [RegExp, OpenAiEncoding][] = [
  [/^(gpt-4o|chatgpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|gpt-oss|o1|o3|o4)/, 'o200k_base'],
  [/^(gpt-4|gpt-3\.5|gpt-35)/, 'cl100k_base'],
];

export const openAiEncodingOf = (model: string): OpenAiEncoding | undefined =>
  openAiEncodings.find(([family]) => family.test(model.replace(/^openai\./, '')))?.[1];

type RankFile = ConstructorParameters<typeof Tiktoken>[0];
type TiktokenClass = typeof Tiktoken;

/** Rank files are megabytes: only a call to an OpenAI-family model loads one. */
const loadRanks = async (encoding: OpenAiEncoding): Promise<[TiktokenClass, RankFile]> => {
  const { Tiktoken: tiktoken } = await import('js-tiktoken/lite');
  const ranks = encoding === 'o200k_base' ? await import('js-tiktoken/ranks/o200k_base') : await import('js-tiktoken/ranks/cl100k_base');
  return [tiktoken, ranks.default];
};

/** Built on the first count (indexing the ranks takes seconds), then kept for the process. */
const tokenizers = new Map<OpenAiEncoding, Tiktoken>();

/**
 * Counts of long texts, per encoding: fitting a conversation counts the whole request, then again
 * each message it considers evicting, and the next turn the same messages again.
 */
const countsOfLongTexts = new Map<OpenAiEncoding, Map<string, number>>();
const memoMinChars = 1_000;
const memoMaxEntries = 2_000;

/** The classes the tokenizers' pre-split keeps together in one piece: letters (any script), digits, whitespace, the rest. */
const pieceClassOf = (code: number): number => {
  const kind = classOf(code);
  return kind === WIDE ? LETTER : kind === ID_JOINER ? PUNCTUATION : kind;
};

/**
 * The tokenizer's merge step grows with the square of a piece's length: a megabyte of one letter, or
 * of `=`, would take minutes. So a run of one class is cut every `maxRunChars` characters and the
 * parts tokenized apart; a cut can only split a token, so it over-counts by at most one per cut.
 * Ordinary text has no such run and is counted exactly.
 */
const maxRunChars = 64;

const countWith = (tokenizer: Tiktoken, text: string): number => {
  // A log line may hold "<|endoftext|>": it is text here, not a special token.
  const encode = (from: number, to: number) => tokenizer.encode(text.slice(from, to), [], []).length;
  let count = 0;
  let segmentStart = 0;
  let runStart = 0;
  let runClass = -1;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    const kind = pieceClassOf(code);
    const isLowSurrogate = code >= 0xdc00 && code <= 0xdfff;
    if (kind !== runClass) {
      runClass = kind;
      runStart = index;
    } else if (index - runStart >= maxRunChars && !isLowSurrogate) {
      count += encode(segmentStart, index);
      segmentStart = index;
      runStart = index;
    }
  }
  return count + encode(segmentStart, text.length);
};

/** The tokenizer of an OpenAI-family model, else the estimate. */
export async function tokenCounterFor(model: string): Promise<TokenCounter> {
  const encoding = openAiEncodingOf(model);
  if (encoding === undefined) return estimateTokens;
  const [tiktoken, ranks] = await loadRanks(encoding);
  const memo = countsOfLongTexts.get(encoding) ?? new Map<string, number>();
  countsOfLongTexts.set(encoding, memo);
  return (text) => {
    const remembered = memo.get(text);
    if (remembered !== undefined) return remembered;
    let tokenizer = tokenizers.get(encoding);
    if (!tokenizer) {
      tokenizer = new tiktoken(ranks);
      tokenizers.set(encoding, tokenizer);
    }
    const count = countWith(tokenizer, text);
    if (text.length >= memoMinChars) {
      if (memo.size >= memoMaxEntries) memo.clear();
      memo.set(text, count);
    }
    return count;
  };
}

/** Per-message framing the providers add (role markers, tool-call ids); a few tokens each. */
const messageOverheadTokens = 4;

/** Tokens one message costs in a request; the eviction code subtracts these per message, so the sum must match. */
export function estimateMessageTokens(message: ModelRequest['messages'][number], count: TokenCounter = estimateTokens): number {
  switch (message.role) {
    case 'user':
      return messageOverheadTokens + count(message.content);
    case 'assistant':
      return (
        messageOverheadTokens +
        count(message.content) +
        message.toolCalls.reduce((sum, call) => sum + messageOverheadTokens + count(call.id) + count(call.name) + count(JSON.stringify(call.arguments) ?? ''), 0)
      );
    case 'tool':
      return messageOverheadTokens + count(message.toolCallId) + count(message.name) + count(message.content);
  }
}

/** The whole request as the model reads it: system prompt, every message and the tool specs' JSON. */
export function estimateRequestTokens(request: ModelRequest, count: TokenCounter = estimateTokens): number {
  return (
    count(request.system) +
    request.messages.reduce((sum, message) => sum + estimateMessageTokens(message, count), 0) +
    (request.tools.length > 0 ? count(JSON.stringify(request.tools)) : 0)
  );
}
