import type { Context } from 'hono';
import type { z } from 'zod';
import { issuesOf, type Issue } from './problem.ts';

export type Validated<T> = { ok: true; value: T } | { ok: false; error: string; issues: Issue[] };

const fromSchema = <T>(schema: z.ZodType<T>, value: unknown, where: string): Validated<T> => {
  const parsed = schema.safeParse(value);
  if (parsed.success) return { ok: true, value: parsed.data };
  return { ok: false, error: `the request ${where} is not valid`, issues: issuesOf(parsed.error, where) };
};

/** Parses raw body text as JSON, then with the schema. */
export const validateJson = <T>(schema: z.ZodType<T>, text: string): Validated<T> => {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return {
      ok: false,
      error: 'the request body is not valid JSON',
      issues: [{ path: 'body', message: `send a JSON object with Content-Type application/json (${error instanceof Error ? error.message : String(error)})` }],
    };
  }
  return fromSchema(schema, value, 'body');
};

/** Query parameters, each given once; repeated keys are an error rather than a silent pick. */
export const validateQuery = <T>(schema: z.ZodType<T>, c: Context): Validated<T> => {
  const all = c.req.queries();
  const repeated = Object.entries(all).filter(([, values]) => values.length > 1);
  if (repeated.length > 0) {
    return {
      ok: false,
      error: 'the request query is not valid',
      issues: repeated.map(([name]) => ({ path: `query.${name}`, message: 'give this parameter once' })),
    };
  }
  return fromSchema(schema, c.req.query(), 'query');
};

export const validateParam = <T>(schema: z.ZodType<T>, value: string | undefined, name: string): Validated<T> =>
  fromSchema(schema, value, `path.${name}`) as Validated<T>;
