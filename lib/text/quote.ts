/**
 * Quoting a log line or a change summary in a finding. A quote that fits is given verbatim, so it can
 * be searched for. One that does not is cut down to what an on-call engineer needs: a logger writes its
 * framework's context first (timestamp, level, thread, logger class, request id) and a stack trace
 * after, with the message between them, and a message says what failed first and why last ("POST
 * /orders failed: ... column "zone" does not exist"), the cause often from a named error on
 * ("...: PSQLException: ..."). Cutting from the front keeps the context and loses the cause, so the
 * context and the stack frames go, and then what lies between what failed and why.
 */

/** Long enough for one failure and its cause, short enough to leave a summary readable. */
export const QUOTE_LIMIT = 160;

/** Below this, no opening and ending of a message fit beside the ellipsis. */
const SHORTEST_LIMIT = 24;

const ELISION = ' … ';

/** `text` on one line, at most `limit` characters: verbatim when it fits, else its message with the middle elided. */
export function quoteMessage(text: string, limit: number = QUOTE_LIMIT): string {
  if (!Number.isInteger(limit) || limit < SHORTEST_LIMIT) {
    throw new RangeError(`quoteMessage: limit must be a whole number of characters, at least ${SHORTEST_LIMIT}; got ${limit}`);
  }
  const verbatim = flatten(text);
  if (verbatim.length <= limit) return verbatim;
  const message = messageOf(text);
  return message.length <= limit ? message : elideMiddle(message, limit);
}

const flatten = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** The message a log line carries: without stack frames, without what the logger put in front of it, a JSON line by its message fields. */
const messageOf = (text: string): string => {
  const message = withoutLoggerContext(flatten(withoutInlineFrames(withoutFrameLines(text))));
  const said = withJsonMessages(message);
  return said === message ? message : withoutLoggerContext(said);
};

// ---- stack frames: where the code was, never what went wrong ----

/** A whole line that is a frame of a Java, JavaScript, C# or Python stack trace, or a header of a Go panic's goroutine dump. */
const frameLine = [
  // JavaScript: `at render (/app/receipt.js:41:17)`, `at async /app/routes.js:31:20`, `at JSON.parse (<anonymous>)`.
  /^at\s+(?:async\s+)?(?:\S+(?:\s\[as \S+\])?\s)?\(?(?:[^()\s]*:\d+(?::\d+)?|<anonymous>|native)\)?["'}\])]*(?: \{)?$/,
  // Java and C#: `at com.acme.View.from(View.java:58)`, `at Acme.View.From(String id) in /src/View.cs:line 58`.
  /^at\s+[\w$.<>`/[\]]+\.[\w$<>`]+\([^()]*\)(?: in \S.*:line \d+)?$/,
  /^\.\.\. \d+ (?:more|common frames omitted)$/,
  /^Traceback \(most recent call last\):$/,
  /^goroutine \d+ \[[^\]]*\]:$/,
  /^\[signal [A-Z]+: [^\]]*\]$/,
  /^created by [\w./*()]+\.[\w*()]+(?: in goroutine \d+)?$/,
];
/** A Python frame (`File "app.py", line 12, in handler`), followed by the line of source it quotes. */
const pythonFrame = /^File "[^"]*", line \d+/;
/** A Go frame's location (`/app/main.go:42 +0x1d`), preceded by the call it locates. */
const goLocation = /^\S+\.go:\d+(?: \+0x[0-9a-f]+)?$/;

const withoutFrameLines = (text: string): string => {
  const lines = text.split(/\r?\n/);
  if (lines.length === 1) return text;
  const indent = (line: string) => line.length - line.trimStart().length;
  const kept: string[] = [];
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!.trim();
    if (frameLine.some((pattern) => pattern.test(line))) {
      // Node prints an error's own properties after its last frame, `{ errno: -3008, code: 'ENOTFOUND' }`: more of where, not what.
      if (line.endsWith(' {')) while (index + 1 < lines.length && lines[index]!.trim() !== '}') index++;
      continue;
    }
    if (pythonFrame.test(line)) {
      const next = lines[index + 1];
      if (next !== undefined && indent(next) > indent(lines[index]!)) index++;
      continue;
    }
    if (goLocation.test(line)) {
      if (kept.length > 0 && /\)$/.test(kept.at(-1)!)) kept.pop();
      continue;
    }
    kept.push(line);
  }
  const message = kept.join('\n');
  return /\p{L}/u.test(message) ? message : text;
};

/** Frames a logger wrote on the message's own line (`at render (/app/receipt.js:41:17)`, `at com.acme.View.from(View.java:58)`). */
const inlineFrames = [
  /\s+at\s+(?:async\s+)?[\w$.<>]+(?:\s\[as [\w$]+\])?\s?\((?:[^()\s]+\.(?:[cm]?js|ts|jsx|tsx|java|kt|scala|cs)(?::\d+)+|<anonymous>|node:[^()\s]+|Native Method|Unknown Source)\)/g,
  /\s+at\s+(?:async\s+)?\/[^\s()]+\.(?:[cm]?js|ts)(?::\d+)+/g,
];

const withoutInlineFrames = (text: string): string => {
  const stripped = inlineFrames.reduce((current, pattern) => current.replace(pattern, ''), text);
  return /\p{L}/u.test(stripped) ? stripped : text;
};

// ---- what the logger puts in front of the message ----

const leadingContext = [
  // Timestamps: ISO-8601 and its log variants, a bare time, syslog's.
  /^\[?\d{4}[-/]\d{2}[-/]\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|\s?[+-]\d{2}:?\d{2})?\]?\s+/,
  /^\d{2}:\d{2}:\d{2}(?:[.,]\d+)?\s+/,
  /^[A-Z][a-z]{2}\s+\d{1,2} \d{2}:\d{2}:\d{2}\s+/,
  // Level words, as loggers print them; a capitalised `Error:` is an exception's name, not a level.
  /^(?:TRACE|DEBUG|INFO|NOTICE|WARN|WARNING|ERROR|ERR|FATAL|CRIT|CRITICAL|SEVERE|PANIC)\b:?\s+/,
  // Python's `ERROR:app.payments:` (level and logger).
  /^(?:DEBUG|INFO|WARNING|ERROR|CRITICAL):[\w.]+:\s*/,
  // Anything in brackets: a thread, a bracketed level, a logger, a request id.
  /^\[[^\]]{1,100}\]:?\s+/,
  // A request id in parentheses, or bare (a Lambda runtime line starts with its request id).
  /^\(?[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\)?:?\s+/i,
  // Process and connection counters: Spring's `12345 ---`, nginx's `1421#0: *48518`.
  /^\d+\s+---\s+/,
  /^---\s+/,
  /^\d+#\d+:\s+/,
  /^\*\d+\s+/,
  // A logger's name before its message: Spring's `c.a.web.OrderController : `, logback's `com.acme.OrderService - `.
  /^[A-Za-z_$][\w$]*(?:\.[\w$]+)+\s+:\s+/,
  /^(?:[a-z_$][\w$]*\.)+[A-Z][\w$]*\s+-\s+/,
];

/** After the message, a group that only carries a request id (`(Service: Sqs, Status Code: 400, Request ID: 0c24...)`, `x-amzn-RequestId=8f81...`). */
const trailingContext = [/\s*[([][^()[\]]*\brequest[ _-]?id\b[^()[\]]*[)\]]$/i, /\s+[\w-]*request-?id[=:]\s*\S+$/i];

/** The message without the logger's context before it, repeatedly (a timestamp, then a level, then a thread...), and the request id after it, only when a message remains. */
const withoutLoggerContext = (text: string): string => {
  let rest = text;
  for (let changed = true; changed; ) {
    changed = false;
    for (const pattern of leadingContext) {
      const next = rest.replace(pattern, '');
      if (next !== rest && /\p{L}/u.test(next)) {
        rest = next;
        changed = true;
      }
    }
  }
  const trimmed = trailingContext.reduce((current, pattern) => current.replace(pattern, ''), rest);
  return /\p{L}/u.test(trimmed) ? trimmed : rest;
};

// ---- JSON lines ----

/** Fields that say what went wrong, in a structured log line or an error body. */
const messageField = /^(?:msg|message|errorMessage|error_message|error|err|exception|reason|cause|detail)$/i;
/** Fields that name the kind of error, said before its message (`SyntaxError: Unexpected end of JSON input`). */
const errorTypeField = /^(?:errorType|error_type|exceptionType|exception_type|exceptionClass|exception_class)$/i;

/**
 * A JSON object in the message (the whole line, or a body or event after some words) replaced by what its
 * message fields say; an object with none is left as it is, its keys and values being all there is.
 */
const withJsonMessages = (text: string): string => {
  for (let start = text.indexOf('{'), tries = 0; start >= 0 && tries < 8; start = text.indexOf('{', start + 1), tries++) {
    const end = closingBrace(text, start);
    if (end === undefined) continue;
    const said = saidBy(parsed(text.slice(start, end + 1)));
    if (said === '') continue;
    const before = text.slice(0, start).replace(/[\s:=]+$/, '');
    const after = text.slice(end + 1).trim();
    return [before && `${before}:`, said, after].filter(Boolean).join(' ');
  }
  return text;
};

/** Where the object opened at `start` closes, reading strings as strings; undefined when it does not. */
const closingBrace = (text: string, start: number): number | undefined => {
  let depth = 0;
  let inString = false;
  for (let index = start; index < text.length; index++) {
    const char = text[index];
    if (inString) {
      if (char === '\\') index++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{') depth++;
    else if (char === '}' && --depth === 0) return index;
  }
  return undefined;
};

const parsed = (json: string): unknown => {
  try {
    return JSON.parse(json);
  } catch {
    return undefined;
  }
};

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The error type and message fields of an object, in its own order, once each: '' when it has none. */
const saidBy = (value: unknown): string => {
  if (!isRecord(value)) return '';
  const parts: string[] = [];
  const say = (part: unknown) => {
    if (typeof part !== 'string' || !/\p{L}/u.test(part)) return;
    if (parts.some((said) => said.includes(part.trim()))) return;
    parts.push(part.trim());
  };
  for (const [key, field] of Object.entries(value)) if (errorTypeField.test(key)) say(field);
  for (const [key, field] of Object.entries(value)) {
    if (!messageField.test(key)) continue;
    if (isRecord(field)) {
      say(field.type ?? field.name ?? field.code);
      say(field.message ?? field.msg);
    } else say(field);
  }
  return parts.join(': ');
};

// ---- the middle ----

/**
 * A named error (`NullPointerException: ...`, `TypeError: ...`, `KMS.AccessDeniedException: ...`): where
 * the cause starts. The last one is the innermost in Java's nesting (`nested exception is ...`).
 */
const namedError = /(?<![\w$.])(?:[A-Za-z_$][\w$]*\.)*((?:[A-Z][\w$]*)?(?:Exception|Error|Fault))(?=:(?:\s|$))/g;

/**
 * What failed (the opening) and why (from the last named error on, or else the ending), with what lies
 * between elided, cut between words where one is near. The cause gets the larger share: it is the part an
 * engineer acts on.
 */
const elideMiddle = (text: string, limit: number): string => {
  const room = limit - ELISION.length;
  const error = [...text.matchAll(namedError)].at(-1);
  if (error === undefined || error.index === 0) return openingAndEnding(text, limit);
  const cause = text.slice(error.index + error[0].length - error[1]!.length);
  const whatFailed = text.slice(0, error.index).trimEnd();
  if (whatFailed.length + 1 + cause.length <= limit) return `${whatFailed} ${cause}`;
  const opening = whatFailed.length <= Math.floor(room * 0.4) ? whatFailed : wellFormedEnd(atWordEnd(whatFailed.slice(0, Math.max(Math.floor(room * 0.4), room - cause.length))).trimEnd());
  const joint = opening === whatFailed ? ' ' : ELISION;
  const causeRoom = limit - opening.length - joint.length;
  return `${opening}${joint}${cause.length <= causeRoom ? cause : openingAndEnding(cause, causeRoom)}`;
};

/** The opening and the ending of `text`, the middle elided, at most `limit` characters. */
const openingAndEnding = (text: string, limit: number): string => {
  const room = limit - ELISION.length;
  const opening = wellFormedEnd(atWordEnd(text.slice(0, Math.floor(room * 0.4))).trimEnd());
  const ending = wellFormedStart(atWordStart(text.slice(text.length - (room - opening.length))).trimStart());
  return `${opening}${ELISION}${ending}`;
};

/** Cut back to the last space when that keeps at least a third of the piece; else the piece as it is. */
const atWordEnd = (piece: string): string => {
  const space = piece.search(/\s\S*$/);
  return space >= piece.length / 3 ? piece.slice(0, space) : piece;
};

/** Start after the first space when that keeps at least two thirds of the piece; else the piece as it is. */
const atWordStart = (piece: string): string => {
  const space = piece.search(/\s/);
  return space >= 0 && space <= piece.length / 3 ? piece.slice(space + 1) : piece;
};

/** Without a lone high surrogate at the end (half of a character cut in two). */
const wellFormedEnd = (piece: string): string => (/[\uD800-\uDBFF]$/.test(piece) ? piece.slice(0, -1) : piece);
/** Without a lone low surrogate at the start. */
const wellFormedStart = (piece: string): string => (/^[\uDC00-\uDFFF]/.test(piece) ? piece.slice(1) : piece);
