import Router from '@koa/router';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// The page ships as a file next to the source; compiled code finds it through the source tree.
const PAGE_PATH = join(__dirname, '..', '..', '..', '..', 'src', 'api', 'dashboard', 'page.html');

/**
 * The billing dashboard for people: a static page over the /v1/billing endpoints. It holds no data itself;
 * the viewer pastes a token, which stays in the tab's sessionStorage.
 */
export function dashboardRoutes(): Router {
  const page = readFileSync(PAGE_PATH, 'utf8');
  const router = new Router();
  router.get('/dashboard', (ctx) => {
    ctx.type = 'text/html; charset=utf-8';
    ctx.set('Content-Security-Policy', "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'");
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.body = page;
  });
  return router;
}
