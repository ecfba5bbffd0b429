/**
 * Opens generated reports in headless Chromium: no console or page errors, every chart canvas has drawn
 * pixels, findings expand, hostile server text did not execute. Saves test-artifacts/report.png.
 */
import { mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { renderReports } from '../../src/report/index.js';
import type { Results } from '../../src/results/schema.js';
import { makeResults } from './fixtures.js';
import { CHROMIUM, chromiumPart, need } from '../support/optional.js';
import { CHROMIUM_ARGS, inspectReport } from './inspect.js';

const chromiumHere = chromiumPart();

describe('HTML report in Chromium', () => {
  let browser: Browser;
  let dir: string;
  let results: Results;

  // Each test skips, or fails under SPGATE_REQUIRE_CHROMIUM=1, with the reason when Chromium is missing.
  beforeEach((ctx) => need(ctx, chromiumHere));

  beforeAll(async () => {
    if (chromiumHere.missing) return;
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
    });
    dir = await mkdtemp(join(tmpdir(), 'spgate-browser-'));
    results = makeResults();
    await renderReports(results, dir, ['html']);
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('draws every chart, runs without errors, makes no network requests and executes nothing hostile', async () => {
    await mkdir(resolve('test-artifacts'), { recursive: true });
    const r = await inspectReport(browser, join(dir, 'index.html'), resolve('test-artifacts/report.png'));
    try {
      expect(r.problems).toEqual([]);
      expect(r.dialogs).toEqual([]);
      expect(r.requests).toEqual([]);
      expect(r.injected).toBe(0);
      expect(r.canvases).toHaveLength(10);
      for (const c of r.canvases) expect(c.drawn, `canvas ${c.id} has no pixels`).toBeGreaterThan(1000);
      // The hostile target name is shown as text.
      expect(await r.page.locator('header.banner').innerText()).toContain('</script><img src=x onerror=alert(1)>');
    } finally {
      await r.page.close();
    }
  });

  it('expands a finding when its summary is clicked, and "Expand all" opens the rest', async () => {
    const r = await inspectReport(browser, join(dir, 'index.html'));
    try {
      const first = r.page.locator('details.finding').first();
      const body = first.locator(':scope > .body');
      expect(await body.isVisible()).toBe(false);
      await first.locator(':scope > summary').click();
      expect(await body.isVisible()).toBe(true);
      expect(await body.innerText()).toMatch(/expected/i);
      await r.page.locator('#toggle-findings').click();
      const open = await r.page.evaluate<boolean>(`Array.from(document.querySelectorAll('details.finding')).every((d) => d.open)`);
      expect(open).toBe(true);
      await r.page.screenshot({
        path: resolve('test-artifacts/report-findings.png'),
        fullPage: false,
        clip: { x: 0, y: 0, width: 1360, height: 900 },
      });
      expect(r.problems).toEqual([]);
    } finally {
      await r.page.close();
    }
  });

  it('reads without JavaScript: text sections render and only the charts need scripts', async () => {
    const ctx = await browser.newContext({ javaScriptEnabled: false });
    const page = await ctx.newPage();
    try {
      await page.goto(pathToFileURL(join(dir, 'index.html')).href);
      const text = await page.locator('main').innerText();
      expect(text).toContain('Conformance by spec clause');
      expect(text).toContain('Rate-limit analysis');
      expect(text).toContain(results.findings[0]!.title);
      expect(await page.locator('noscript').count()).toBeGreaterThan(0);
    } finally {
      await ctx.close();
    }
  });
});
