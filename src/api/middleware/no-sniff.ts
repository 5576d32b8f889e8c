import type { Context, Next } from 'koa';

/**
 * `X-Content-Type-Options: nosniff` on every answer (errors and raw MCP answers too, set before anything is
 * written): a browser must not guess a type other than the declared one, e.g. run a document's user Markdown or a
 * problem's echoed input as HTML or script.
 */
export async function noSniff(ctx: Context, next: Next): Promise<void> {
  ctx.set('X-Content-Type-Options', 'nosniff');
  await next();
}
