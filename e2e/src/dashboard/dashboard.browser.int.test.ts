// The dashboard in a real browser: Debian's Chromium driven by playwright-core against the page served by
// listenDashboard, fed by a scripted restart. Needs no clusters; lives in the integration project for the
// browser. Writes e2e/artifacts/dashboard.png.
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { listenDashboard } from '@warmstart/controller-manager';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LAST_STEP, RestartScript } from './restart-script.js';

const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = fileURLToPath(new URL('../../artifacts/', import.meta.url));
const SCREENSHOT = `${ARTIFACTS}dashboard.png`;
const SCREENSHOT_RESTARTING = `${ARTIFACTS}dashboard-restarting.png`;
const SCREENSHOT_DARK = `${ARTIFACTS}dashboard-dark.png`;
const WAIT_MS = 10_000;

let browser: Browser | undefined;
let dashboard: Awaited<ReturnType<typeof listenDashboard>> | undefined;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `${CHROMIUM} is missing: the dashboard's browser test drives Debian's Chromium and never downloads one. ` +
        'Install it with `apt-get install chromium` (scripts/system-deps.sh does).',
    );
  }
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    timeout: 60_000,
    args: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
});

afterAll(async () => {
  await dashboard?.close();
  await browser?.close();
});

/** Waits (auto-retrying, bounded) until the element with this data-testid shows exactly `text`. */
async function shows(page: Page, testId: string, text: string | RegExp): Promise<void> {
  const exact =
    typeof text === 'string' ? new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) : text;
  await page.getByTestId(testId).filter({ hasText: exact }).waitFor({ state: 'attached', timeout: WAIT_MS });
}

async function textOf(page: Page, testId: string): Promise<string> {
  return ((await page.getByTestId(testId).textContent({ timeout: WAIT_MS })) ?? '').trim();
}

describe('dashboard in Chromium', () => {
  it('shows a restart live: caches go from listing to synced, counts grow, direct reads stay 0', async () => {
    const script = new RestartScript();
    dashboard = await listenDashboard({ port: 0, source: script, minIntervalMs: 100 });
    const origin = new URL(dashboard.url).origin;
    const context = await browser!.newContext({
      viewport: { width: 1280, height: 900 },
      deviceScaleFactor: 1,
    });
    const page = await context.newPage();
    const problems: string[] = [];
    const foreign: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    page.on('request', (r) => {
      if (!r.url().startsWith(origin) && !r.url().startsWith('data:')) foreign.push(r.url());
    });

    const response = await page.goto(dashboard.url, { timeout: WAIT_MS });
    expect(response?.status()).toBe(200);
    await shows(page, 'connection', 'live');

    // Step 0: just restarted, on standby, nothing listed.
    const deployments = 'host/apps/v1/deployments';
    await shows(page, `informer-state-${deployments}`, 'listing');
    expect(await textOf(page, `informer-objects-${deployments}`)).toBe('0');
    await shows(page, 'leader', 'standby');
    expect(await textOf(page, 'leader-holder')).toBe('leader: warmstart-7d9f-1');
    expect(await textOf(page, 'controller-state-detector')).toBe('waiting for leader');
    expect(await textOf(page, 'ready')).toBe('not ready');
    expect(await textOf(page, 'direct-reads')).toBe('0');
    expect(await page.getByTestId('direct-reads-card').getAttribute('class')).toContain('ok');

    // Step 1: leading, lists under way; counts and rates arrive live.
    script.go(1);
    await shows(page, `informer-objects-${deployments}`, '41,000');
    await shows(page, `informer-rate-${deployments}`, '8,210/s');
    await shows(page, `informer-progress-${deployments}`, 'listed 41,000 objects');
    await shows(page, 'leader', 'leading');
    await shows(page, 'controller-state-detector', 'running');
    await shows(page, 'controller-queue-detector', '61,000');
    expect(await textOf(page, `informer-state-${deployments}`)).toBe('listing');
    expect(await textOf(page, 'informer-state-host/policy.karmada.io/v1alpha1/propagationpolicies')).toBe(
      'synced',
    );

    // Step 2: some synced, one forbidden list shows as failed with its error.
    script.go(2);
    await shows(page, 'informer-state-host/core/v1/configmaps', 'synced');
    await shows(page, `informer-objects-${deployments}`, '78,000');
    await shows(page, 'informer-state-member2/networking.k8s.io/v1/ingresses', 'failed');
    expect(await textOf(page, 'informer-error-member2/networking.k8s.io/v1/ingresses')).toMatch(
      /is forbidden/,
    );
    await shows(page, 'controller-last-error-key-binding', 'default/web-00421-deployment');
    expect(await textOf(page, 'controller-last-error-age-binding')).toMatch(/^\d+\.\ds ago$/);
    // A list under way has a (moving) bar; a synced one has none.
    expect(await page.getByTestId(`informer-bar-${deployments}`).isVisible()).toBe(true);
    expect(await page.getByTestId('informer-bar-host/core/v1/configmaps').isVisible()).toBe(false);
    await mkdir(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: SCREENSHOT_RESTARTING, fullPage: true, animations: 'disabled' });

    // Step 3: every cache synced, ready; direct reads still 0, shown green.
    script.go(LAST_STEP);
    await shows(page, `informer-state-${deployments}`, 'synced');
    await shows(page, `informer-objects-${deployments}`, '100,000');
    await shows(page, 'informer-state-member2/networking.k8s.io/v1/ingresses', 'synced');
    await shows(page, 'ready', 'ready');
    const states = await page.locator('[data-testid^="informer-state-"]').allTextContents();
    expect(states).toHaveLength(10);
    expect(new Set(states)).toEqual(new Set(['synced']));
    expect(await textOf(page, 'cluster-summary-host')).toBe('7/7 synced · 450,130 objects');
    expect(await textOf(page, 'direct-reads')).toBe('0');
    const readsColor = await page.evaluate(
      'getComputedStyle(document.querySelector(\'[data-testid="direct-reads"]\')).color',
    );
    expect(readsColor).toBe('rgb(15, 122, 85)'); // --green

    await page.screenshot({ path: SCREENSHOT, fullPage: true, animations: 'disabled' });
    expect(existsSync(SCREENSHOT)).toBe(true);
    // The same page in the operator's dark theme (prefers-color-scheme), for a look.
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: SCREENSHOT_DARK, fullPage: true, animations: 'disabled' });

    // The page made no request anywhere but the dashboard, and the CSP refused nothing it needs.
    expect(foreign).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('shows "disconnected" while the manager is away and reconnects by itself', async () => {
    await dashboard?.close();
    const script = new RestartScript();
    dashboard = await listenDashboard({ port: 0, source: script });
    const port = Number(new URL(dashboard.url).port);
    const context = await browser!.newContext();
    const page = await context.newPage();
    await page.goto(dashboard.url, { timeout: WAIT_MS });
    await shows(page, 'connection', 'live');

    await dashboard.close();
    await shows(page, 'connection', 'disconnected');
    expect(await page.evaluate('document.body.classList.contains("stale")')).toBe(true);

    // Back on the same port, further along: the page picks it up without a reload.
    script.go(LAST_STEP);
    dashboard = await listenDashboard({ port, source: script });
    await shows(page, 'connection', 'live');
    await shows(page, 'ready', 'ready');
    expect(await page.evaluate('document.body.classList.contains("stale")')).toBe(false);

    // A direct read is never normal: the counter turns red.
    script.setDirectReads(250);
    await shows(page, 'direct-reads', '250');
    expect(await page.getByTestId('direct-reads-card').getAttribute('class')).toContain('bad');
    await context.close();
  });
});
