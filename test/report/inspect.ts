/**
 * Opens a report in Chromium and collects what a reader would notice: console and page errors, dialogs,
 * network requests, the pixels drawn on every canvas, and elements the page itself never creates.
 */
import type { Browser, Page } from 'playwright-core';
import { pathToFileURL } from 'node:url';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

interface CanvasProbe {
  id: string;
  width: number;
  height: number;
  drawn: number;
}

// Page-side code as a string: the test program is type-checked without DOM types.
const CANVAS_PROBE = `Array.from(document.querySelectorAll('canvas')).map((c) => {
  const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  let drawn = 0;
  for (let i = 3; i < data.length; i += 4) if (data[i] > 0) drawn++;
  return { id: c.id, width: c.width, height: c.height, drawn };
})`;

export interface Inspection {
  page: Page;
  problems: string[];
  dialogs: string[];
  requests: string[];
  canvases: CanvasProbe[];
  injected: number;
}

/** Opens a report file and inspects it; the caller closes `page`. */
export async function inspectReport(browser: Browser, file: string, screenshot?: string): Promise<Inspection> {
  const page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
  const problems: string[] = [];
  const dialogs: string[] = [];
  const requests: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  page.on('request', (r) => {
    if (!r.url().startsWith('file:') && !r.url().startsWith('data:')) requests.push(r.url());
  });
  await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
  const canvases = await page.evaluate<CanvasProbe[]>(CANVAS_PROBE);
  const injected = await page.evaluate<number>(`document.querySelectorAll('img, svg, iframe, object, embed').length`);
  if (screenshot) await page.screenshot({ path: screenshot, fullPage: false });
  return { page, problems, dialogs, requests, canvases, injected };
}
