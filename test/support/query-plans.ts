/**
 * Records the query shapes a MongoClient sends (driver command monitoring: create it with monitorCommands) and explains them
 * against the same server, so a test can prove that every query the service makes is served by an index.
 */
import type { Db, Document, MongoClient } from 'mongodb';

const QUERY_COMMANDS = ['find', 'aggregate', 'count', 'distinct', 'update', 'delete', 'findAndModify'] as const;

export interface CapturedQuery {
  collection: string;
  command: string;
  /** The command as sent, minus session and cluster fields, ready to wrap in `explain`. */
  body: Document;
  shape: string;
}

/** Field names and operators with values replaced, so one shape stands for every call of one query. */
export function shapeOf(value: unknown): unknown {
  if (value instanceof Map) return shapeOf(Object.fromEntries(value));
  if (Array.isArray(value)) return value.length === 0 ? [] : [shapeOf(value[0])];
  if (value && typeof value === 'object' && !(value instanceof Date) && value.constructor?.name === 'Object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, shapeOf((value as Record<string, unknown>)[k])]),
    );
  }
  return '?';
}

const SESSION_FIELDS = new Set([
  'lsid',
  '$clusterTime',
  'txnNumber',
  '$db',
  '$readPreference',
  'readConcern',
  'writeConcern',
  'apiVersion',
  'cursor',
]);

export function captureQueries(client: MongoClient, dbName: string): { queries: Map<string, CapturedQuery>; stop(): void } {
  const queries = new Map<string, CapturedQuery>();
  const listener = (ev: { commandName: string; databaseName: string; command: Document }) => {
    if (ev.databaseName !== dbName || !(QUERY_COMMANDS as readonly string[]).includes(ev.commandName)) return;
    const body = Object.fromEntries(Object.entries(ev.command).filter(([k]) => !SESSION_FIELDS.has(k)));
    const collection = String(body[ev.commandName]);
    const parts =
      ev.commandName === 'update'
        ? (body.updates as Document[]).map((u) => ({ q: u.q, multi: u.multi, upsert: u.upsert }))
        : ev.commandName === 'delete'
          ? (body.deletes as Document[]).map((d) => ({ q: d.q }))
          : ev.commandName === 'aggregate'
            ? body.pipeline
            : { filter: body.filter ?? body.query, sort: body.sort, key: body.key };
    const shape = `${collection} ${ev.commandName} ${JSON.stringify(shapeOf(parts))}`;
    if (!queries.has(shape)) queries.set(shape, { collection, command: ev.commandName, body, shape });
  };
  client.on('commandStarted', listener);
  return { queries, stop: () => void client.off('commandStarted', listener) };
}

/** Every stage name in a plan tree (MongoDB's explain shape: stage, inputStage, inputStages, queryPlan). */
export function planStages(plan: unknown, into: string[] = []): string[] {
  if (!plan || typeof plan !== 'object') return into;
  const node = plan as Record<string, unknown>;
  if (typeof node.stage === 'string') into.push(node.stage);
  for (const key of ['inputStage', 'queryPlan', 'winningPlan']) if (node[key]) planStages(node[key], into);
  for (const key of ['inputStages', 'shards'])
    if (Array.isArray(node[key])) for (const child of node[key] as unknown[]) planStages(child, into);
  return into;
}

/** The winning plan's stages for one captured query. Bulk writes are explained one statement at a time. */
export async function explainStages(db: Db, q: CapturedQuery): Promise<string[]> {
  const bodies: Document[] =
    q.command === 'update'
      ? (q.body.updates as Document[]).slice(0, 1).map((u) => ({ update: q.collection, updates: [u] }))
      : q.command === 'delete'
        ? (q.body.deletes as Document[]).slice(0, 1).map((d) => ({ delete: q.collection, deletes: [d] }))
        : [q.body];
  const stages: string[] = [];
  for (const body of bodies) {
    const res = await db.command({ explain: body, verbosity: 'queryPlanner' });
    const planner = (res.queryPlanner ?? (res.stages as Document[] | undefined)?.[0]?.$cursor?.queryPlanner) as Document | undefined;
    if (!planner) throw new Error(`explain of ${q.shape} answered no queryPlanner: ${JSON.stringify(res).slice(0, 500)}`);
    planStages(planner.winningPlan, stages);
  }
  return stages;
}
