import { describe, expect, it } from 'vitest';
import { consoleAssetRoutes } from '../../local/console/assets.ts';

describe('console assets', () => {
  const routes = consoleAssetRoutes();

  it('serves the page at / with a policy that admits only this origin', async () => {
    const response = await routes.request('/');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const policy = response.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("connect-src 'self'");
    const html = await response.text();
    expect(html).toContain('src="console/app.js"');
    // Every asset the page names is relative to this origin.
    expect([...html.matchAll(/(?:src|href)="([^"#]+)"/g)].map((match) => match[1])).toEqual(['console/uPlot.min.css', 'console/console.css', 'console/app.js']);
  });

  it('bundles the page script with uPlot and serves the styles', async () => {
    const script = await routes.request('/console/app.js');
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(await script.text()).toContain('uPlot');
    const uPlotStyles = await routes.request('/console/uPlot.min.css');
    expect(uPlotStyles.headers.get('content-type')).toMatch(/^text\/css/);
    expect(await uPlotStyles.text()).toContain('.uplot');
    expect((await routes.request('/console/console.css')).status).toBe(200);
  });

  it('answers 404 for anything else', async () => {
    expect((await routes.request('/console/secrets.json')).status).toBe(404);
    expect((await routes.request('/investigations')).status).toBe(404);
  });
});
