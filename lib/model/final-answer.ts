import { z } from 'zod';
import { findingDraft, type FindingDraft } from '../domain/finding.ts';

export type FinalAnswer = { ok: true; draft: FindingDraft } | { ok: false; error: string };

/** The JSON object in a model's reply: a ```json fence, or the outermost braces. */
const extractJson = (text: string): string | undefined => {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(text);
  if (fenced?.[1]) return fenced[1].trim();
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  return start >= 0 && end > start ? text.slice(start, end + 1) : undefined;
};

/** Parses a model's final answer into a finding draft; malformed output is an error, never a crash. */
export const parseFinalAnswer = (text: string): FinalAnswer => {
  const json = extractJson(text);
  if (json === undefined) return { ok: false, error: 'the final answer holds no JSON object' };
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    return { ok: false, error: `the final answer is not valid JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  const parsed = findingDraft.safeParse(value);
  return parsed.success ? { ok: true, draft: parsed.data } : { ok: false, error: `the final answer does not match the finding schema: ${z.prettifyError(parsed.error)}` };
};
