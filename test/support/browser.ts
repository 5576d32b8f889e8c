/**
 * Debian's chromium driven by puppeteer-core, for the console's browser suites: finding the browser (a missing
 * one fails in CI and skips loudly elsewhere, as scripts/ensure-chromium.sh says), axe-core, screenshots,
 * downloads, and the checks every view gets (no wider than the window).
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'puppeteer-core' with { 'resolution-mode': 'import' };
import { eventually } from './eventually';
import { findExecutable } from './find-executable';

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

export const chromiumPath = (): string | null => findExecutable([process.env.CHROMIUM_PATH, 'chromium', 'chromium-browser']);

/** The browser, or a skipped suite (a failure with CI=true: a missing browser is never a pass by omission). */
export async function launchChromium(ctx: Mocha.Context): Promise<Browser> {
  const executablePath = chromiumPath();
  if (!executablePath) {
    if (process.env.CI === 'true')
      throw new Error('CI=true and no chromium: the browser tests cannot run (bash scripts/ensure-chromium.sh installs it as root)');
    console.error(
      '\n[browser] !!! chromium not found: THE BROWSER TESTS DID NOT RUN (bash scripts/ensure-chromium.sh installs it as root) !!!\n',
    );
    ctx.skip();
  }
  const { launch } = await import('puppeteer-core');
  return launch({ executablePath: executablePath!, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
}

/** Script errors, CSP violations and failed requests a page reports (`expected` failures aside). */
export function watchProblems(page: Page, problems: string[], expected: (status: number, url: string) => boolean = () => false): void {
  page.on('console', (m) => {
    if (m.type() === 'error' && !/status of (403|401|404|409|422|400)/.test(m.text())) problems.push(m.text());
  });
  page.on('response', (r) => {
    if (r.status() >= 400 && !expected(r.status(), r.url())) problems.push(`${r.status()} ${r.url()}`);
  });
  page.on('pageerror', (e) => problems.push(String(e)));
}

/** axe-core on what a page shows now: no serious or critical violation. */
export async function axeCheck(p: Page, what: string): Promise<void> {
  // The console's CSP allows only its own scripts: axe is evaluated through the debugging protocol, which it does not govern.
  await p.evaluate(readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));
  const found = JSON.parse(
    String(
      await p.evaluate(
        "axe.run(document, { resultTypes: ['violations'] }).then((r) => JSON.stringify(r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id + ': ' + v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(' | '))))",
      ),
    ),
  ) as string[];
  assert.deepEqual(found, [], `${what}: ${found.join(', ')}`);
}

/** How far the page is wider than its window, and the widest elements when it is. */
export async function overflow(p: Page): Promise<{ px: number; widest: string }> {
  const px = Number(await p.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth'));
  const widest = String(
    await p.evaluate(
      "[...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1).slice(0, 6).map((e) => e.tagName + (e.id ? '#' + e.id : '') + '.' + e.className + ':' + Math.round(e.getBoundingClientRect().right)).join(' ')",
    ),
  );
  return { px, widest };
}

/** A full-page screenshot once the page has drawn a frame with what it shows now. */
export async function capture(p: Page, file: string): Promise<void> {
  mkdirSync(join(file, '..'), { recursive: true });
  await p.evaluate('new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))');
  await p.screenshot({ path: file as `${string}.png`, fullPage: true });
}

/** A folder this page's downloads land in, and a way to wait for one file there. */
export async function downloadsOf(p: Page): Promise<{ dir: string; next(name: string): Promise<string> }> {
  const dir = mkdtempSync(join(tmpdir(), 'console-downloads-'));
  const cdp = await p.createCDPSession();
  await cdp.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: dir });
  return {
    dir,
    async next(name: string) {
      const file = join(dir, name);
      await eventually(
        async () => existsSync(file) && !readdirSync(dir).some((f) => f.endsWith('.crdownload')),
        (done) => done,
        { what: `the download ${name}` },
      );
      return readFileSync(file, 'utf8');
    },
  };
}
