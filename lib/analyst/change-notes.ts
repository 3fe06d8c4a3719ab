import type { Change } from './evidence-board.ts';

/** How many of a change's own notes a finding repeats: enough to say what changed, not the whole release. */
const MOST_NOTES = 4;

const valueWords = (value: unknown): string => (value === null || value === undefined ? 'unset' : typeof value === 'string' ? value : JSON.stringify(value));

const linesOf = (value: unknown): string[] => (typeof value === 'string' ? [value] : Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []);

/**
 * The lines of a plan that change something: added or removed (`+`, `-`), or a value moved in place
 * (`~ timeout = 30 -> 10`), with words of their own. The lines that only open or name a block
 * (`~ resource "aws_s3_bucket_policy" "baseline" {`, `id = "docs"`, `- {`) say nothing of what
 * changed. A plan without such lines is read as it is.
 */
const planChanges = (lines: readonly string[]): string[] => {
  const changing = lines.filter((line) => (/^\s*[-+]/.test(line) || /^\s*~.*->/.test(line)) && /[a-z0-9]/i.test(line.trim().replace(/^[-+~/]+/, '')));
  return changing.length > 0 ? changing : [...lines];
};

/** A JSON object, not an array or a scalar: what a change's details nest. */
export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Settings a map moved, each `setting: [before, after]` (`cache.ttlSeconds: 300 -> 60`). */
const movedIn = (map: Record<string, unknown>): string[] =>
  Object.entries(map).flatMap(([setting, values]) => (Array.isArray(values) && values.length === 2 ? [`${setting}: ${valueWords(values[0])} -> ${valueWords(values[1])}`] : []));

/**
 * The parameters a change set, as a database parameter group's change lists them: CloudTrail's
 * `requestParameters.parameters` of `{parameterName, parameterValue}`, or the same list with a value
 * before and after, or a map of each parameter to its values before and after.
 */
const parametersSet = (details: Record<string, unknown>): string[] => {
  const request = details['requestParameters'];
  const listed = details['parameters'] ?? (isRecord(request) ? request['parameters'] : undefined);
  if (isRecord(listed)) return movedIn(listed);
  if (!Array.isArray(listed)) return [];
  return listed.filter(isRecord).flatMap((parameter) => {
    const name = parameter['parameterName'] ?? parameter['ParameterName'] ?? parameter['name'];
    const value = parameter['parameterValue'] ?? parameter['ParameterValue'] ?? parameter['to'] ?? parameter['value'];
    if (typeof name !== 'string' || value === undefined) return [];
    return [`${name}: ${'from' in parameter ? `${valueWords(parameter['from'])} -> ` : ''}${valueWords(value)}`];
  });
};

/**
 * The switches and numbers a CloudTrail request set (`enabled: false`, `batchSize: 10`): a call's
 * names and ids say what it touched, these say what it did to it.
 */
const settingsRequested = (details: Record<string, unknown>): string[] => {
  const request = details['requestParameters'];
  if (!isRecord(request)) return [];
  return Object.entries(request).flatMap(([setting, value]) => (typeof value === 'boolean' || typeof value === 'number' ? [`${setting}: ${value}`] : []));
};

/**
 * What a change says it changed, in its own words: its changelog, its plan's changing lines and the resource
 * changes an infrastructure-as-code apply lists, each setting its diff moved
 * (`cache.ttlSeconds: 300 -> 60`), each parameter it set and each switch or number its request set. A summary names the
 * release; these say what the release did, which is what an on-call engineer reads to judge whether
 * it can be the cause.
 */
export const changeNotesOf = (change: Change): string[] => {
  const details = change.details ?? {};
  const diff = details['diff'];
  const moved = isRecord(diff) ? movedIn(diff) : [];
  return [...linesOf(details['changelog']), ...planChanges(linesOf(details['plan'])), ...linesOf(details['resourceChanges']), ...moved, ...parametersSet(details), ...settingsRequested(details)]
    .filter((line) => line.trim().length > 0)
    .slice(0, MOST_NOTES);
};
