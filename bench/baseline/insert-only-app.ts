/**
 * The intake a team without Temporal would write: the same Koa app shape as createApp (error middleware
 * first, request context with the metrics observer, a router, the same body reader and size limit) whose
 * handler only inserts the raw event into MongoDB and answers 200. No app lookup, no forwarding.
 */
import Router from '@koa/router';
import Koa from 'koa';
import type { Db } from 'mongodb';
import { WEBHOOK_BODY_LIMIT } from '../../src/api/http/limits';
import { createMetrics } from '../../src/api/http/metrics';
import { errorMiddleware } from '../../src/api/middleware/errors';
import { readJsonBody } from '../../src/api/middleware/json-body';
import { requestContext } from '../../src/api/middleware/request-context';
import { badRequest } from '../../src/api/http/problem';
import { APP_WEBHOOK_PATH } from '../../src/contracts/webhook-paths';
import type { Logger } from '../../src/logging/logger';
import { isDuplicateKeyError } from '../../src/store/mongo';

export const RAW_EVENTS = 'raw_webhook_events';

export function createInsertOnlyApp(db: Db, logger: Logger): Koa {
  const events = db.collection<{ _id: string; receivedAt: Date; eventJson: string }>(RAW_EVENTS);
  const metrics = createMetrics();
  const router = new Router();
  router.post(APP_WEBHOOK_PATH, async (ctx) => {
    const body = (await readJsonBody(ctx, WEBHOOK_BODY_LIMIT)) as { event?: { id?: unknown } } | undefined;
    const id = body?.event?.id;
    if (typeof id !== 'string' || id === '') throw badRequest('invalid_event', 'event.id is required');
    let duplicate = false;
    try {
      await events.insertOne({ _id: id, receivedAt: new Date(), eventJson: JSON.stringify(body!.event) });
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
      duplicate = true;
    }
    ctx.status = 200;
    ctx.body = { received: true, eventId: id, duplicate };
  });
  const app = new Koa();
  app.use(errorMiddleware(logger));
  app.use(requestContext(logger, metrics.observeRequest));
  app.use(router.routes());
  app.use(router.allowedMethods({ throw: true }));
  return app;
}
