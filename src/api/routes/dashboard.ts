import Router from '@koa/router';
import type { Context } from 'koa';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { notFound } from '../http/problem';

/**
 * The console as built (scripts/build-console.mjs copies web/console/ and the two libraries it loads into
 * dist/console/): compiled code finds it beside itself, in the image and in a checkout alike. The source tree
 * is never read.
 */
const BUILT_DIR = join(__dirname, '..', '..', '..', 'console');

const TYPES: Record<string, string> = { js: 'application/javascript; charset=utf-8', css: 'text/css; charset=utf-8' };

/**
 * Every asset the console loads, read once at start-up: its modules (`console.js` and `views/*.js`), its style
 * and the libraries it uses (uPlot, markdown-it), no CDN. Only names found here are served: nothing from the URL
 * reaches the file system.
 */
function loadBuilt(): { page: string; assets: Map<string, { type: string; body: string }> } {
  if (!existsSync(join(BUILT_DIR, 'page.html')))
    throw new Error(`The console is not built (${BUILT_DIR} has no page.html): run npm run build, which runs scripts/build-console.mjs`);
  const assets = new Map<string, { type: string; body: string }>();
  const walk = (dir: string, prefix: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(dir, entry.name), `${prefix}${entry.name}/`);
      const type = TYPES[entry.name.split('.').pop() ?? ''];
      if (entry.isFile() && type) assets.set(`${prefix}${entry.name}`, { type, body: readFileSync(join(dir, entry.name), 'utf8') });
    }
  };
  walk(BUILT_DIR, '');
  return { page: readFileSync(join(BUILT_DIR, 'page.html'), 'utf8'), assets };
}

/** Scripts and styles only from this origin; no inline script or style; data only from the API. */
export const CONSOLE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/**
 * The operator console for people: a static page over the /v1 endpoints. It holds no data itself; the token
 * comes in the URL fragment (never sent to the server) or is pasted, and is kept in the tab's session only.
 */
export function dashboardRoutes(): Router {
  const { page, assets } = loadBuilt();
  const router = new Router();
  router.get('/dashboard', (ctx) => {
    ctx.type = 'text/html; charset=utf-8';
    ctx.set('Content-Security-Policy', CONSOLE_CSP);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.set('Cache-Control', 'no-store');
    ctx.body = page;
  });
  const serve = (ctx: Context, name: string) => {
    const asset = assets.get(name);
    if (!asset) throw notFound('not_found', 'No such console asset');
    ctx.type = asset.type;
    ctx.set('Content-Security-Policy', CONSOLE_CSP);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = asset.body;
  };
  router.get('/dashboard/assets/:name', (ctx) => serve(ctx, ctx.params.name!));
  router.get('/dashboard/assets/views/:name', (ctx) => serve(ctx, `views/${ctx.params.name!}`));
  return router;
}
