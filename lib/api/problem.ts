import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { z } from 'zod';

/** One thing wrong with a request: where (`body.question`, `query.limit`, `header.x-pagerduty-signature`) and what. */
export interface Issue {
  path: string;
  message: string;
}

/** Every error the API returns has this shape. */
export interface Problem {
  error: string;
  issues: Issue[];
}

export const problem = (c: Context, status: ContentfulStatusCode, error: string, issues: Issue[] = []) =>
  c.json<Problem>({ error, issues }, status);

export const issuesOf = (error: z.ZodError, where: string): Issue[] =>
  error.issues.map((issue) => ({
    path: [where, ...issue.path.map(String)].join('.'),
    message: issue.message,
  }));
