import { APP_BODY_SCHEMA } from '../../contracts/bodies';
import {
  authErrors,
  bearer,
  bodyErrors,
  dateTime,
  headers,
  json,
  jsonBody,
  nullableDateTime,
  pathParam,
  problemRef,
  queryParam,
  record,
  ref,
  type OpenApiPart,
  type Schema,
} from './common';

const tags = ['apps'];
const slug = pathParam('slug', 'App slug');
const authorization: Schema = { type: 'string', description: 'The webhook Authorization value; shown this once, stored only as a digest' };
const APP: Schema = record({
  slug: { type: 'string' },
  name: { type: 'string' },
  webhookUrl: { type: 'string', format: 'uri', description: "The app's receiver, for the provider's dashboard" },
  createdAt: dateTime,
  authorizationRotatedAt: nullableDateTime,
  previousAuthorizationValidUntil: {
    ...nullableDateTime,
    description: 'Until when a value rotated out still authorizes (the latest of them); null when none does',
  },
});

/** Customer apps connected to the billing provider (routes/apps.ts). No response carries a stored secret. */
export const appPart: OpenApiPart = {
  schemas: {
    App: APP,
    AppCreated: {
      ...APP,
      required: [...(APP.required as string[]), 'authorization'],
      properties: { ...(APP.properties as Record<string, Schema>), authorization },
    },
    AppList: record({ apps: { type: 'array', items: ref('App') } }),
    AuthorizationRotated: record({
      authorization,
      previousValidUntil: { ...dateTime, description: 'The value rotated out works until then (now with revokePrevious=true)' },
      webhookUrl: { type: 'string', format: 'uri' },
    }),
  },
  paths: {
    '/v1/apps': {
      post: {
        summary: 'Connect a customer app (admin)',
        description:
          "The answer carries the webhook authorization value this once: paste it into the provider's webhook Authorization field.",
        tags,
        security: bearer,
        requestBody: jsonBody(APP_BODY_SCHEMA),
        responses: {
          201: json('The app, its webhookUrl and authorization', ref('AppCreated'), headers.location),
          400: problemRef('Invalid body'),
          ...authErrors,
          409: problemRef('Slug taken (app_exists), or kept by a deleted app whose billing records remain under it (app_slug_retired)'),
          ...bodyErrors,
        },
      },
      get: {
        summary: 'Connected apps (admin)',
        tags,
        security: bearer,
        responses: { 200: json('The apps', ref('AppList')), ...authErrors },
      },
    },
    '/v1/apps/{slug}': {
      get: {
        summary: 'One app (admin)',
        tags,
        security: bearer,
        parameters: [slug],
        responses: {
          200: json('The app', ref('App')),
          400: problemRef('Not a slug (invalid_id)'),
          ...authErrors,
          404: problemRef('Unknown app'),
        },
      },
      delete: {
        summary: 'Disconnect an app (admin)',
        description: 'Its webhook stops authorizing; its billing records stay, and so its slug cannot be reused.',
        tags,
        security: bearer,
        parameters: [slug],
        responses: {
          204: { description: 'Removed' },
          400: problemRef('Not a slug (invalid_id)'),
          ...authErrors,
          404: problemRef('Unknown app'),
        },
      },
    },
    '/v1/apps/{slug}/webhook-authorization/rotate': {
      post: {
        summary: 'New webhook authorization value (admin)',
        description:
          'The value rotated out keeps working until previousValidUntil, and values earlier rotations left in grace keep theirs (at most 5); revokePrevious=true revokes them all at once.',
        tags,
        security: bearer,
        parameters: [
          slug,
          queryParam('revokePrevious', 'true: no grace for any earlier value (one that leaked); previousValidUntil is then now', {
            type: 'string',
            enum: ['true', 'false'],
          }),
        ],
        responses: {
          200: json('The new value (shown once) and previousValidUntil', ref('AuthorizationRotated')),
          400: problemRef('revokePrevious is not true or false, not a slug, or a request body that is not JSON (none is needed)'),
          ...authErrors,
          404: problemRef('Unknown app'),
          ...bodyErrors,
        },
      },
    },
  },
};
