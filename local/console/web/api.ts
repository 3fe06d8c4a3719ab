/// <reference lib="dom" />

/** An answer other than 2xx, with the API's own words (`{error, issues}`). */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    message: string,
    readonly issues: { path: string; message: string }[],
  ) {
    super(message);
  }

  /** What the user reads: the status, the API's error and each issue's message. */
  describe(): string {
    const details = this.issues.map((issue) => issue.message).filter((message) => message !== this.message);
    return `${this.status}: ${this.message}${details.length > 0 ? ` (${details.join('; ')})` : ''}`;
  }
}

/**
 * Every call is relative to the page's origin: `sre-agent serve` answers it itself, and
 * `sre-agent console` forwards it, signed, to the deployed API.
 */
const request = async <T>(path: string, init: RequestInit = {}): Promise<T> => {
  const response = await fetch(path, { ...init, credentials: 'same-origin', headers: { accept: 'application/json', ...(init.body ? { 'content-type': 'application/json' } : {}) } });
  const text = await response.text();
  let body: unknown;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (!response.ok) {
    const problem = body as { error?: unknown; issues?: unknown } | undefined;
    const issues = Array.isArray(problem?.issues) ? (problem.issues as { path: string; message: string }[]) : [];
    throw new ApiError(response.status, typeof problem?.error === 'string' ? problem.error : `${response.statusText || 'request failed'} (${path})`, issues);
  }
  return body as T;
};

export const getJson = <T>(path: string): Promise<T> => request<T>(path);

export const postJson = <T>(path: string, body: unknown): Promise<T> => request<T>(path, { method: 'POST', body: JSON.stringify(body) });

export const errorText = (error: unknown): string => (error instanceof ApiError ? error.describe() : error instanceof Error ? error.message : String(error));
