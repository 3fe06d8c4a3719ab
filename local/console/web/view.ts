/// <reference lib="dom" />

/** What the router shows: it renders into `main` and stops its timers when the user leaves. */
export interface View {
  dispose(): void;
  /** Called when only the route's detail changed (another transcript event of the same investigation). */
  update?(route: Route): boolean;
}

export type Route =
  | { name: 'investigations'; status?: string; service?: string }
  | { name: 'investigation'; id: string; seq?: number }
  | { name: 'approvals'; status?: string }
  | { name: 'not-found'; hash: string };

/** Calls `task` now and every `ms` after it settles, until stopped; a failing poll shows its error and keeps polling. */
export const poll = (ms: number, task: () => Promise<void>): (() => void) => {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const run = async () => {
    await task().catch(() => undefined);
    if (!stopped) timer = setTimeout(run, ms);
  };
  void run();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
};

/** Routes live in the hash, so the page needs no server route of its own and every view has a link. */
export const routeOf = (hash: string): Route => {
  const [path = '', search = ''] = hash.replace(/^#/, '').split('?');
  const query = new URLSearchParams(search);
  const optional = (name: string) => (query.get(name) ? { [name]: query.get(name)! } : {});
  if (path === '' || path === '/') return { name: 'investigations', ...optional('status'), ...optional('service') };
  if (path === '/approvals') return { name: 'approvals', ...optional('status') };
  const investigation = /^\/investigations\/([^/]+)(?:\/events\/(\d+))?$/.exec(path);
  if (investigation) return { name: 'investigation', id: decodeURIComponent(investigation[1]!), ...(investigation[2] ? { seq: Number(investigation[2]) } : {}) };
  return { name: 'not-found', hash };
};

export const investigationHref = (id: string, seq?: number): string => `#/investigations/${encodeURIComponent(id)}${seq === undefined ? '' : `/events/${seq}`}`;
