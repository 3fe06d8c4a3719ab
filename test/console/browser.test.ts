import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelRequest } from '../../lib/model/port.ts';
import { DynamoDbApprovalStore } from '../../lib/store/dynamodb-approval-store.ts';
import { startLocalApiServer, type LocalApiServer } from '../../local/api-server.ts';
import { consoleAssetRoutes } from '../../local/console/assets.ts';
import { startConsoleServer } from '../../local/console/proxy-server.ts';
import { BUNDLED_SCENARIOS_DIR, parseScenarioText } from '../../local/scenario-files.ts';
import { freshStore } from '../support/dynamodb.ts';
import { ScriptedModel } from '../support/scripted-model.ts';

const OUTPUT_DIR = join(process.cwd(), 'test-output', 'console');
/** Conditions, not sleeps: each wait ends as soon as the page shows what it waits for. */
const WAIT_MS = 90_000;

const scenario = parseScenarioText(readFileSync(join(BUNDLED_SCENARIOS_DIR, 'bad-deploy-cascade.json'), 'utf8'), 'bad-deploy-cascade.json');
if (!('cloudwatchAlarm' in scenario.trigger)) throw new Error('bad-deploy-cascade is expected to start from a CloudWatch alarm');
const alarmEvent = scenario.trigger.cloudwatchAlarm;

/**
 * An on-call model for the bundled bad deploy: it reads the alarms, the alarm's metric, the changes
 * and the failing service's logs, proposes rolling inventory-api back, then answers citing what it read.
 * Its turn is counted from the conversation, so concurrent investigations each get the whole script.
 */
const onCallModel = () =>
  new ScriptedModel((request: ModelRequest) => {
    const turn = request.messages.filter((message) => message.role === 'assistant').length + 1;
    if (turn === 1) {
      return {
        text: 'Start with what is firing, the alarm metric, what changed and the failing service’s logs.',
        toolCalls: [
          { id: 'alarms', name: 'list_alarms', arguments: {} },
          { id: 'metric', name: 'get_metrics', arguments: { service: 'storefront-web', name: '5XX' } },
          { id: 'changes', name: 'list_changes', arguments: {} },
          { id: 'logs', name: 'query_logs', arguments: { service: 'inventory-api' } },
        ],
      };
    }
    if (turn === 2) {
      return {
        text: 'inventory-api v2.14.0 writes a column that does not exist; rolling it back restores reservations.',
        toolCalls: [{ id: 'rollback', name: 'ecs_rollback_task_definition', arguments: { cluster: 'prod', service: 'inventory-api' } }],
      };
    }
    return {
      text: JSON.stringify({
        incident: true,
        rootCause: { service: 'inventory-api', category: 'deploy', summary: 'inventory-api v2.14.0 inserts into a column its database does not have, so reservations fail and checkout and the storefront return 5xx.' },
        confidence: 0.9,
        evidence: [
          { ref: 'E2', summary: 'storefront-web 5xx rise above the alarm threshold from 14:12' },
          { ref: 'E3', summary: 'inventory-api v2.14.0 deployed at 14:08' },
          { ref: 'E4', summary: 'inventory-api BadSqlGrammarException on warehouse_zone from 14:12' },
        ],
        remediation: [{ action: 'rollback', target: 'inventory-api', detail: 'back to v2.13.2' }],
        timeline: [
          { at: '2026-03-10T14:08:24Z', event: 'inventory-api v2.14.0 deployed' },
          { at: '2026-03-10T14:12:12Z', event: 'first reservation errors' },
        ],
        // Markup in the model's words must reach the page as text.
        impact: 'Checkout fails for orders that reserve stock; the storefront shows <img src=x onerror="window.injected=true">.',
      }),
    };
  });

describe('the console in a real Chromium', () => {
  let server: LocalApiServer;
  let approvals: DynamoDbApprovalStore;
  let browser: Browser;
  let page: Page;
  const requested: string[] = [];
  const pageErrors: string[] = [];

  beforeAll(async () => {
    mkdirSync(OUTPUT_DIR, { recursive: true });
    const { client, tableName } = await freshStore();
    approvals = new DynamoDbApprovalStore({ client, tableName });
    // The AWS tools over the emulated account: the approved rollback really runs (UpdateService) and is verified by re-reading the alarm.
    server = await startLocalApiServer({ client, tableName, scenario, tools: 'aws', model: onCallModel(), port: 0, env: { USER: 'oncall' } });
    browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(WAIT_MS);
    page.on('request', (request) => requested.push(request.url()));
    page.on('pageerror', (error) => pageErrors.push(error.message));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const startInvestigation = async (path: string, body: unknown): Promise<string> => {
    const response = await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(response.status).toBe(202);
    return ((await response.json()) as { id: string }).id;
  };

  it('lists the investigation, shows its chart and timeline, takes the approval, and shows the action executed and verified', async () => {
    const id = await startInvestigation('/events', alarmEvent);

    await page.goto(`${server.url}/`);
    const listed = page.getByRole('link', { name: 'CloudWatch alarm storefront-web-alb-target-5xx is ALARM' });
    await listed.waitFor();
    await page.getByRole('table').getByText('storefront-web', { exact: true }).waitFor();
    await page.screenshot({ path: join(OUTPUT_DIR, 'list.png') });

    await listed.click();
    await page.waitForURL(`**/#/investigations/${id}`);
    await page.getByRole('heading', { level: 1, name: 'CloudWatch alarm storefront-web-alb-target-5xx is ALARM' }).waitFor();

    // The approval the workflow waits for, with the exact call.
    const card = page.getByRole('article', { name: 'ecs_rollback_task_definition on ECS service inventory-api in cluster prod' });
    await card.waitFor();
    expect(await card.textContent()).toContain('"service": "inventory-api"');
    expect(await card.textContent()).toMatch(/min \d+ s left/);
    expect(await card.locator('dd').filter({ hasText: 'inventory-api:413' }).textContent()).toContain('inventory-api:412');

    // The alarm's metric drawn by uPlot, with the threshold and the onset described.
    const chart = page.locator('figure .uplot canvas');
    await chart.waitFor();
    expect(await chart.evaluate((canvas: HTMLCanvasElement) => canvas.width)).toBeGreaterThan(300);
    const caption = await page.locator('figcaption').textContent();
    expect(caption).toContain('HTTPCode_Target_5XX_Count (storefront-web)');
    expect(caption).toContain('Threshold 25');
    expect(caption).toContain('Alarm onset 2026-03-10 14:17:31 UTC');
    expect(caption).toContain('inventory-api v2.14.0 rolled out');

    const timeline = page.locator('ol.timeline');
    await timeline.getByText('approval requested: ecs_rollback_task_definition').waitFor();
    const entries = await timeline.locator('li').allTextContents();
    expect(entries.some((entry) => /UTC change .*inventory-api v2\.14\.0 rolled out/.test(entry))).toBe(true);
    expect(entries.some((entry) => /UTC first error .*inventory-api: .*BadSqlGrammarException/.test(entry))).toBe(true);
    expect(entries.some((entry) => /UTC alarm onset .*storefront-web-alb-target-5xx ALARM: greater than or equal to 25/.test(entry))).toBe(true);
    expect(entries.some((entry) => /UTC symptom .*checkout-api-target-5xx/.test(entry))).toBe(true);
    await page.screenshot({ path: join(OUTPUT_DIR, 'investigation-awaiting-approval.png') });

    await card.getByLabel('Comment (optional)').fill('Rollback agreed on the bridge.');
    await card.getByRole('button', { name: 'Approve' }).click();
    await card.getByText('Decision recorded: approved by local:oncall').waitFor();
    expect(await card.getByRole('button', { name: 'Approve' }).count()).toBe(0);

    // The workflow resumes: the action runs, is verified, and the investigation finishes.
    await page.locator('.facts').getByText('succeeded', { exact: true }).waitFor();
    await timeline.locator('.kind-verification').first().waitFor();
    const finished = await timeline.locator('li').allTextContents();
    expect(finished.some((entry) => /UTC action .*approval approved by local:oncall/.test(entry))).toBe(true);
    expect(finished.some((entry) => /UTC action .*ecs_rollback_task_definition on \S*inventory-api: executed/.test(entry))).toBe(true);
    // Verified: the check ran and answered (an action that only recorded itself reads "not verifiable").
    expect(finished.some((entry) => /UTC verification .*ecs_rollback_task_definition: (recovered|not recovered): /.test(entry))).toBe(true);
    const report = page.locator('.report');
    await report.getByRole('heading', { name: 'Actions' }).waitFor();
    expect(await report.textContent()).toContain('executed after approval');
    expect(await report.textContent()).toContain('<img src=x onerror="window.injected=true">');
    expect(await report.locator('img').count()).toBe(0);
    expect(await page.evaluate(() => 'injected' in window)).toBe(false);
    // As it opens once finished, facts, chart and timeline in view (docs/console.png is a copy of it).
    await page.setViewportSize({ width: 1280, height: 1950 });
    await page.reload();
    await page.locator('figure .uplot canvas').waitFor();
    await timeline.locator('.kind-verification').first().waitFor();
    await page.screenshot({ path: join(OUTPUT_DIR, 'investigation-finished.png') });
    await page.setViewportSize({ width: 1280, height: 900 });

    // An evidence ref in the report leads to the transcript event holding it.
    await report.getByRole('link', { name: 'E4', exact: true }).first().click();
    await page.waitForURL(/\/events\/\d+$/);
    const focused = await page.evaluate(() => document.activeElement?.textContent ?? '');
    expect(focused).toContain('E4 query_logs');

    // Masked, as the model saw it, and unmasked.
    const transcript = page.locator('ol.transcript');
    expect(await transcript.textContent()).toContain('<LOAD_BALANCER_1>');
    await page.getByLabel('Unmasked (placeholders resolved; redacted secrets were never stored)').check();
    await transcript.getByText('app/prod-shop-public/7f3c9a21b4e6d580').first().waitFor({ state: 'attached' });
    expect(await transcript.textContent()).not.toContain('<LOAD_BALANCER_1>');
    await page.screenshot({ path: join(OUTPUT_DIR, 'investigation-transcript.png'), fullPage: true });
  });

  it('an approval decided elsewhere cannot be decided again: the 409 is shown and the buttons are disabled', async () => {
    const questionId = await startInvestigation('/investigations', { question: 'Why is checkout failing?', service: 'checkout-api' });
    await page.goto(`${server.url}/#/approvals`);
    const card = page.locator('article.approval', { has: page.getByRole('link', { name: questionId }) });
    await card.waitFor();
    const approvalId = await card.getAttribute('data-approval-id');
    const elsewhere = await fetch(`${server.url}/approvals/${approvalId}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ decision: 'reject', comment: 'not during the freeze' }) });
    expect(elsewhere.status).toBe(200);
    await card.getByRole('button', { name: 'Approve' }).click();
    await card.getByRole('alert').getByText(/^The API refused the decision: 409: /).waitFor();
    expect(await card.getByRole('button', { name: 'Approve' }).isDisabled()).toBe(true);
    expect(await card.getByRole('button', { name: 'Reject' }).isDisabled()).toBe(true);
    await page.screenshot({ path: join(OUTPUT_DIR, 'approval-conflict.png') });

    await page.getByLabel('Status').selectOption('rejected');
    const decided = page.locator(`article.approval[data-approval-id="${approvalId}"]`);
    await decided.locator('dd').filter({ hasText: 'rejected by local:oncall' }).waitFor();
    expect(await decided.getByRole('button').count()).toBe(0);
  });

  it('an approval whose time runs out gets disabled buttons on the page, and the API answers 410', async () => {
    const requestedAt = new Date();
    await approvals.requestApproval(
      {
        id: 'apr-console-expiring',
        investigationId: 'inv-console-expiring',
        toolCallId: 'call_scale',
        action: 'ecs_set_desired_count',
        target: 'ECS service orders in cluster prod',
        summary: 'Set the desired task count of ECS service orders in cluster prod to 0.',
        arguments: { cluster: 'prod', service: 'orders', desiredCount: 0 },
        reason: 'Stop the poison-message loop.',
        previousValue: '4',
        actionHash: 'hash',
        status: 'pending',
        requestedAt: requestedAt.toISOString(),
        expiresAt: new Date(requestedAt.getTime() + 5_000).toISOString(),
        callback: 'none',
      },
      'token-never-shown',
    );
    await page.goto(`${server.url}/#/approvals`);
    const card = page.locator('article.approval[data-approval-id="apr-console-expiring"]');
    await card.waitFor();
    expect(await card.locator('dd').filter({ hasText: 'Stop the poison-message loop.' }).count()).toBe(1);
    expect(await card.locator('dd').filter({ hasText: /^4$/ }).count()).toBe(1);
    await card.getByText('it can no longer be decided').waitFor();
    expect(await card.getByRole('button', { name: 'Approve' }).isDisabled()).toBe(true);
    expect(await card.getByRole('button', { name: 'Reject' }).isDisabled()).toBe(true);
    await page.screenshot({ path: join(OUTPUT_DIR, 'approval-expired.png') });
    const late = await fetch(`${server.url}/approvals/apr-console-expiring`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ decision: 'approve' }) });
    expect(late.status).toBe(410);
  });

  it('behind sre-agent console (the proxy) the same page lists, opens and charts, and works from the keyboard', async () => {
    const proxy = await startConsoleServer({ assets: consoleAssetRoutes(), api: new URL(server.url), port: 0 });
    try {
      await page.goto(`${proxy.url}/`);
      const listed = page.getByRole('link', { name: 'CloudWatch alarm storefront-web-alb-target-5xx is ALARM' });
      await listed.waitFor();
      // Tab through the page to the investigation's link and follow it with Enter.
      for (let presses = 0; presses < 30 && !(await listed.evaluate((link) => link === document.activeElement)); presses++) await page.keyboard.press('Tab');
      await page.keyboard.press('Enter');
      await page.waitForURL(/#\/investigations\/inv-/);
      await page.locator('figure .uplot canvas').waitFor();
      await page.locator('.facts').getByText('succeeded', { exact: true }).waitFor();
      await page.getByRole('link', { name: 'Approvals' }).click();
      await page.getByRole('heading', { level: 1, name: 'Approvals' }).waitFor();
      await page.getByLabel('Status').selectOption('approved');
      await page.locator('article.approval dd').filter({ hasText: 'approved by local:oncall' }).first().waitFor();
    } finally {
      await proxy.close();
    }
  });

  it('the page made no request outside 127.0.0.1 and threw no error', () => {
    expect(requested.length).toBeGreaterThan(0);
    expect(requested.filter((url) => new URL(url).hostname !== '127.0.0.1')).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
