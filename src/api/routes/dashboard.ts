import Router from '@koa/router';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { notFound } from '../problem';

// The page ships as files next to the source; compiled code finds them through the source tree.
const PAGE_DIR = join(__dirname, '..', '..', '..', '..', 'src', 'api', 'dashboard');
const packageDir = (name: string) => dirname(require.resolve(`${name}/package.json`));

/**
 * Every asset the console loads, served by the API itself (no CDN): its own script and style, and the two
 * libraries it uses, read from node_modules at start-up. The names are fixed: nothing from the URL reaches
 * the file system.
 */
function loadAssets(): Map<string, { type: string; body: string }> {
  const js = 'application/javascript; charset=utf-8';
  const css = 'text/css; charset=utf-8';
  return new Map([
    ['console.js', { type: js, body: readFileSync(join(PAGE_DIR, 'console.js'), 'utf8') }],
    ['console.css', { type: css, body: readFileSync(join(PAGE_DIR, 'console.css'), 'utf8') }],
    ['uPlot.iife.min.js', { type: js, body: readFileSync(join(packageDir('uplot'), 'dist', 'uPlot.iife.min.js'), 'utf8') }],
    ['uPlot.min.css', { type: css, body: readFileSync(join(packageDir('uplot'), 'dist', 'uPlot.min.css'), 'utf8') }],
    [
      'markdown-it.min.js',
      { type: js, body: readFileSync(join(packageDir('markdown-it'), 'dist', 'browser', 'markdown-it.umd.min.js'), 'utf8') },
    ],
  ]);
}

/** Scripts and styles only from this origin; no inline script or style; data only from the API. */
export const CONSOLE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/**
 * The operator console for people: a static page over the /v1 endpoints. It holds no data itself; the token
 * comes in the URL fragment (never sent to the server) or is pasted, and is kept in the page's memory only.
 */
export function dashboardRoutes(): Router {
  const page = readFileSync(join(PAGE_DIR, 'page.html'), 'utf8');
  const assets = loadAssets();
  const router = new Router();
  router.get('/dashboard', (ctx) => {
    ctx.type = 'text/html; charset=utf-8';
    ctx.set('Content-Security-Policy', CONSOLE_CSP);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.set('Cache-Control', 'no-store');
    ctx.body = page;
  });
  router.get('/dashboard/assets/:name', (ctx) => {
    const asset = assets.get(ctx.params.name!);
    if (!asset) throw notFound('not_found', 'No such console asset');
    ctx.type = asset.type;
    ctx.set('Content-Security-Policy', CONSOLE_CSP);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = asset.body;
  });
  return router;
}
