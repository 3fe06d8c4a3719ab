import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Hono, type Context } from 'hono';

const webDir = fileURLToPath(new URL('./web/', import.meta.url));
const uPlotDist = dirname(createRequire(import.meta.url).resolve('uplot'));

/**
 * Everything the page loads comes from this origin; the policy makes the browser refuse anything
 * else, so a bug in the page cannot reach another host.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const headers = (contentType: string): Record<string, string> => ({
  'content-type': contentType,
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  // A local tool restarted after an upgrade should never run yesterday's script.
  'cache-control': 'no-store',
});

let bundled: Promise<string> | undefined;

/** The page's modules and uPlot, bundled once per process by esbuild (installed with the package's dev dependencies). */
const appBundle = (): Promise<string> => {
  bundled ??= (async () => {
    const { build } = await import('esbuild').catch((error: unknown) => {
      throw new Error(`the console needs esbuild to bundle its page; run npm ci in the sre-agent folder (${error instanceof Error ? error.message : String(error)})`);
    });
    const result = await build({
      entryPoints: [join(webDir, 'main.ts')],
      bundle: true,
      format: 'esm',
      target: ['chrome120', 'firefox120'],
      write: false,
      logLevel: 'silent',
    });
    const output = result.outputFiles[0];
    if (!output) throw new Error('esbuild produced no bundle for the console');
    return output.text;
  })();
  bundled.catch(() => (bundled = undefined));
  return bundled;
};

const file = (path: string, contentType: string) => async (c: Context) => c.body(await readFile(path, 'utf8'), 200, headers(contentType));

/**
 * The console web app: `GET /` is the page and `/console/*` its script and styles, all bundled
 * with the package. The page calls the API with relative paths, so it works the same behind
 * `sre-agent serve` (same origin) and behind `sre-agent console` (the signing proxy).
 */
export const consoleAssetRoutes = (): Hono => {
  const routes = new Hono();
  routes.get('/', file(join(webDir, 'index.html'), 'text/html; charset=utf-8'));
  routes.get('/console/console.css', file(join(webDir, 'console.css'), 'text/css; charset=utf-8'));
  routes.get('/console/uPlot.min.css', file(join(uPlotDist, 'uPlot.min.css'), 'text/css; charset=utf-8'));
  routes.get('/console/app.js', async (c) => c.body(await appBundle(), 200, headers('text/javascript; charset=utf-8')));
  return routes;
};
