/**
 * The relay's ledger (src/billing-intake/relay-ledger.ts) and its invariant: the checkpoint never passes an event
 * still owed, so whatever an instance stored and did not relay is found again by a peer's recovery once it dies.
 * The store is in memory (memory-relay-store.ts); expected values come from a model written here: a list of
 * events, each in one phase of its life (insert under way, stored, handed to the relay, relayed), per instance.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { RelayLedger, STALE_AFTER_MS } from '../../../src/billing-intake/relay-ledger';
import { createLogger } from '../../../src/logging/logger';
import type { WebhookEventRecord } from '../../../src/store/webhook-events';
import { testConfig } from '../../support/config';
import { inboxRecord } from './inbox-record';
import { MemoryRelayStore } from './memory-relay-store';

const logger = createLogger(testConfig({ LOG_LEVEL: 'silent' }), 'test');
const T0 = Date.UTC(2026, 10, 27, 6, 0, 0);
const RUNS = Number(process.env.RELAY_LEDGER_RUNS ?? 400);

function ledgerOver(store: MemoryRelayStore, instanceId: string, now: () => number): RelayLedger {
  return new RelayLedger({ instanceId, checkpoints: store.checkpoints, events: store.events, logger, now: () => new Date(now()) });
}

let serial = 0;
/** An inbox record accepted by `instanceId` at `receivedAtMs`. */
function stored(instanceId: string, receivedAtMs: number): WebhookEventRecord {
  return { ...inboxRecord('app:x', `s${serial % 7}`, serial++), receivedAt: new Date(receivedAtMs), acceptedBy: instanceId };
}

describe('the relay ledger: what an instance owes and its checkpoint', () => {
  it('holds the checkpoint at an insert under way, then at the oldest event owed, and lets it go once all are relayed', async () => {
    const store = new MemoryRelayStore();
    let now = T0;
    const ledger = ledgerOver(store, 'a', () => now);
    const at = () => store.saved.get('a')?.safeUntil.getTime();

    await ledger.checkpoint();
    assert.equal(at(), T0, 'nothing owed: the checkpoint is now');
    const ticket = ledger.accepting(new Date(T0 + 1_000));
    now = T0 + 5_000;
    await ledger.checkpoint();
    assert.equal(at(), T0 + 1_000, 'an insert under way holds it, stored or not');
    ledger.owe('e1', new Date(T0 + 1_000));
    ledger.accepted(ticket);
    ledger.owe('e2', new Date(T0 + 3_000));
    ledger.owe('e1', new Date(T0 + 4_000));
    now = T0 + 9_000;
    await ledger.checkpoint();
    assert.equal(at(), T0 + 1_000, 'owed again, an event keeps its first receipt time');
    assert.equal(ledger.owed, 2);
    assert.equal(ledger.lagMs(T0 + 9_000), 8_000);
    ledger.settle('e1');
    await ledger.checkpoint();
    assert.equal(at(), T0 + 3_000);
    ledger.settle('e2');
    assert.equal(ledger.clear, true);
    assert.equal(ledger.lagMs(T0 + 9_000), 0);
    await ledger.checkpoint();
    assert.equal(at(), T0 + 9_000);
  });

  it('at shutdown removes the checkpoint when nothing is owed, and writes it once more when something is', async () => {
    const store = new MemoryRelayStore();
    const ledger = ledgerOver(store, 'a', () => T0 + 2_000);
    ledger.owe('e1', new Date(T0));
    await ledger.retire();
    assert.equal(store.saved.get('a')?.safeUntil.getTime(), T0, 'left to go stale, for a peer to relay the rest from');
    ledger.settle('e1');
    await ledger.retire();
    assert.equal(store.saved.has('a'), false);
  });

  it("recovery relays a dead peer's events since its checkpoint, page by page, then retires it; never its own or a live one", async () => {
    const store = new MemoryRelayStore();
    store.storeMs = T0;
    await store.checkpoints.save('dead', new Date(T0 - 60_000));
    await store.checkpoints.save('me', new Date(T0 - 60_000));
    const before = Array.from({ length: 40 }, (_, i) => stored('dead', T0 - 120_000 + i));
    const since = Array.from({ length: 1_234 }, (_, i) => stored('dead', T0 - 60_000 + i));
    const mine = [stored('me', T0 - 30_000)];
    store.inbox.push(...before, ...since, ...mine);
    store.storeMs = T0 + 1_000;
    await store.checkpoints.save('live', new Date(T0));
    store.storeMs = T0 + STALE_AFTER_MS + 1;

    const relayed: string[] = [];
    const ledger = ledgerOver(store, 'me', () => T0);
    const count = await ledger.recover(async (r) => void relayed.push(r._id));
    assert.deepEqual(new Set(relayed), new Set(since.map((r) => r._id)), 'every event since the checkpoint, and only those');
    assert.equal(count, relayed.length);
    assert.ok(relayed.length <= since.length + 2, 'a page boundary repeats at most its last event');
    assert.deepEqual([...store.saved.keys()].sort(), ['live', 'me']);
    assert.equal(await ledger.recover(async () => assert.fail('nothing is left to relay')), 0);
  });

  it('a relay that fails stops the pass and leaves the dead checkpoint for the next one; concurrent calls share one pass', async () => {
    const store = new MemoryRelayStore();
    await store.checkpoints.save('dead', new Date(T0));
    store.inbox.push(...Array.from({ length: 5 }, (_, i) => stored('dead', T0 + i)));
    store.storeMs = STALE_AFTER_MS + 1;
    const ledger = ledgerOver(store, 'me', () => T0);
    let calls = 0;
    const failing = async () => {
      if (++calls === 3) throw new Error('Temporal unavailable');
    };
    const first = ledger.recover(failing);
    assert.equal(ledger.recover(failing), first, 'one pass at a time');
    await assert.rejects(first, /Temporal unavailable/);
    assert.equal(store.saved.get('dead')?.safeUntil.getTime(), T0, 'kept as it was');
    assert.equal(ledger.recovery, null);
    const relayed: string[] = [];
    assert.equal(await ledger.recover(async (r) => void relayed.push(r._id)), 5);
    assert.equal(relayed.length, 5);
    assert.equal(store.saved.has('dead'), false);
  });
});

type Phase = 'inserting' | 'stored' | 'owed' | 'relayed' | 'dropped';

/** One event of the model: who accepted it, when, where it is, and how often it reached its workflow. */
interface ModelEvent {
  record: WebhookEventRecord;
  instance: Instance;
  phase: Phase;
  ticket: number;
  /** Relays that reached the workflow: by its own instance, or by a peer's recovery. */
  delivered: number;
}

interface Instance {
  id: string;
  skewMs: number;
  ledger: RelayLedger;
  alive: boolean;
  /** A peer took it for dead while it lived and removed its checkpoint; its next checkpoint writes it again. */
  exposed: boolean;
}

type Op =
  | { kind: 'start'; skewMs: number }
  | { kind: 'begin'; who: number }
  | { kind: 'store'; which: number }
  | { kind: 'handOver'; which: number }
  | { kind: 'insertFails'; which: number }
  | { kind: 'relay'; which: number }
  | { kind: 'fail'; which: number }
  | { kind: 'checkpoint'; who: number }
  | { kind: 'tick'; ms: number }
  | { kind: 'crash'; who: number }
  | { kind: 'recover'; who: number; failAfter: number | null };

const index = fc.nat(1_000);
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('start' as const), skewMs: fc.integer({ min: -30_000, max: 30_000 }) }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('begin' as const), who: index }), weight: 5 },
  { arbitrary: fc.record({ kind: fc.constant('store' as const), which: index }), weight: 4 },
  { arbitrary: fc.record({ kind: fc.constant('handOver' as const), which: index }), weight: 4 },
  { arbitrary: fc.record({ kind: fc.constant('insertFails' as const), which: index }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('relay' as const), which: index }), weight: 4 },
  { arbitrary: fc.record({ kind: fc.constant('fail' as const), which: index }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('checkpoint' as const), who: index }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant('tick' as const), ms: fc.integer({ min: 0, max: 12_000 }) }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant('crash' as const), who: index }), weight: 1 },
  {
    arbitrary: fc.record({ kind: fc.constant('recover' as const), who: index, failAfter: fc.option(fc.nat(6), { nil: null }) }),
    weight: 2,
  },
);

/**
 * Runs the ops against ledgers over one in-memory store and checks them against the model after each; returns the
 * problems found (empty: the ledgers agree with the model).
 */
async function runAgainstModel(ops: Op[]): Promise<string[]> {
  const store = new MemoryRelayStore();
  let time = T0;
  store.storeMs = time;
  const instances: Instance[] = [];
  const events: ModelEvent[] = [];
  /** The model's checkpoints: instance id → what it last wrote, and when by the store's clock. */
  const checkpoints = new Map<string, { safeUntilMs: number; heartbeatMs: number }>();
  const problems: string[] = [];
  let peers = 0;

  const alive = () => instances.filter((i) => i.alive);
  const nowOf = (i: Instance) => time + i.skewMs;
  const pick = <T>(list: T[], n: number): T | undefined => (list.length === 0 ? undefined : list[n % list.length]);
  const eventsIn = (phase: Phase) => events.filter((e) => e.phase === phase && e.instance.alive);
  /** The events an instance owes: insert under way (stored or not) or handed over and not yet relayed. */
  const owedBy = (i: Instance) => events.filter((e) => e.instance === i && ['inserting', 'stored', 'owed'].includes(e.phase));

  const start = async (skewMs: number) => {
    const id = `i${instances.length}`;
    const instance: Instance = { id, skewMs, alive: true, exposed: false, ledger: ledgerOver(store, id, () => time + skewMs) };
    instances.push(instance);
    await checkpoint(instance);
  };
  const checkpoint = async (i: Instance) => {
    await i.ledger.checkpoint();
    const safeUntilMs = Math.min(nowOf(i), ...owedBy(i).map((e) => e.record.receivedAt.getTime()));
    checkpoints.set(i.id, { safeUntilMs, heartbeatMs: time });
    i.exposed = false;
  };
  const crash = (i: Instance) => {
    i.alive = false;
    // Its requests die with it: an insert that had not landed was never acknowledged (the provider retries it).
    for (const e of events) if (e.instance === i && e.phase === 'inserting') e.phase = 'dropped';
  };
  const recover = async (who: number, failAfter: number | null) => {
    const live = alive();
    const peer = pick(live, who) ?? { id: `peer${peers++}`, ledger: null };
    const ledger = peer.ledger ?? ledgerOver(store, peer.id, () => time);
    // The model's view of what is stale and what each stale checkpoint must bring back.
    const stale = [...checkpoints].filter(([id, c]) => id !== peer.id && c.heartbeatMs < time - STALE_AFTER_MS);
    const expected = new Map(
      stale.map(([id, c]) => [
        id,
        events.filter(
          (e) => e.instance.id === id && e.phase !== 'dropped' && e.record.receivedAt.getTime() >= c.safeUntilMs && e.phase !== 'inserting',
        ),
      ]),
    );
    const relayed = new Set<string>();
    let calls = 0;
    let failed = false;
    const count = await ledger
      .recover(async (record) => {
        if (failAfter !== null && calls++ === failAfter) throw new Error('Temporal unavailable');
        relayed.add(record._id);
        const e = events.find((x) => x.record._id === record._id);
        if (e) e.delivered += 1;
      })
      .catch(() => {
        failed = true;
        return -1;
      });
    for (const [id, c] of stale) {
      const want = expected.get(id)!;
      const got = want.filter((e) => relayed.has(e.record._id));
      const kept = store.saved.get(id);
      if (kept) {
        if (!failed) problems.push(`recovery by ${peer.id} left stale ${id} in the store`);
        if (kept.safeUntil.getTime() !== c.safeUntilMs) problems.push(`a failed recovery moved ${id}'s checkpoint`);
        continue;
      }
      if (got.length !== want.length) problems.push(`${id} retired with ${want.length - got.length} of its events not relayed`);
      checkpoints.delete(id);
      const instance = instances.find((i) => i.id === id)!;
      if (instance.alive) instance.exposed = true;
      // The invariant itself: nothing the dead instance stored and did not relay was behind its checkpoint.
      for (const e of events.filter((x) => x.instance === instance && ['stored', 'owed'].includes(x.phase)))
        if (!relayed.has(e.record._id)) problems.push(`${e.record._id}, owed by ${id}, was passed by its checkpoint`);
    }
    const inStale = new Set([...expected.values()].flat().map((e) => e.record._id));
    for (const id of relayed) if (!inStale.has(id)) problems.push(`recovery relayed ${id}, not after a stale checkpoint`);
    if (!failed && count !== relayed.size) problems.push(`recovery said ${count}, relayed ${relayed.size}`);
  };

  const step = async (op: Op) => {
    switch (op.kind) {
      case 'start':
        return start(op.skewMs);
      case 'begin': {
        const i = pick(alive(), op.who);
        if (!i) return;
        const record = stored(i.id, nowOf(i));
        events.push({ record, instance: i, phase: 'inserting', ticket: i.ledger.accepting(record.receivedAt), delivered: 0 });
        return;
      }
      case 'store': {
        const e = pick(eventsIn('inserting'), op.which);
        if (!e) return;
        store.inbox.push(e.record);
        e.phase = 'stored';
        return;
      }
      case 'handOver': {
        const e = pick(eventsIn('stored'), op.which);
        if (!e) return;
        e.instance.ledger.owe(e.record._id, e.record.receivedAt);
        e.instance.ledger.accepted(e.ticket);
        e.phase = 'owed';
        return;
      }
      case 'insertFails': {
        const e = pick(eventsIn('inserting'), op.which);
        if (!e) return;
        e.instance.ledger.accepted(e.ticket);
        e.phase = 'dropped';
        return;
      }
      case 'relay': {
        const e = pick(eventsIn('owed'), op.which);
        if (!e) return;
        e.instance.ledger.settle(e.record._id);
        e.phase = 'relayed';
        e.delivered += 1;
        return;
      }
      case 'fail':
        // A relay that failed: the event stays owed (the forwarder retries it later), so nothing reaches the ledger.
        return;
      case 'checkpoint': {
        const i = pick(alive(), op.who);
        if (i) await checkpoint(i);
        return;
      }
      case 'tick':
        time += op.ms;
        store.storeMs = time;
        return;
      case 'crash': {
        const i = pick(alive(), op.who);
        if (i) crash(i);
        return;
      }
      case 'recover':
        return recover(op.who, op.failAfter);
    }
  };

  const check = (after: string) => {
    const inStore = [...store.saved.values()].map((c) => [c._id, c.safeUntil.getTime(), c.heartbeatAt.getTime()]);
    const modelled = [...checkpoints].map(([id, c]) => [id, c.safeUntilMs, c.heartbeatMs]);
    const byId = (a: (string | number)[], b: (string | number)[]) => String(a[0]).localeCompare(String(b[0]));
    if (JSON.stringify(inStore.sort(byId)) !== JSON.stringify(modelled.sort(byId)))
      problems.push(`after ${after}: checkpoints ${JSON.stringify(inStore)}, the model's ${JSON.stringify(modelled)}`);
    for (const i of alive()) {
      const handed = events.filter((e) => e.instance === i && e.phase === 'owed');
      if (i.ledger.owed !== handed.length) problems.push(`after ${after}: ${i.id} owes ${i.ledger.owed}, the model ${handed.length}`);
      const lag = Math.max(0, ...handed.map((e) => nowOf(i) - e.record.receivedAt.getTime()));
      if (i.ledger.lagMs(nowOf(i)) !== lag) problems.push(`after ${after}: ${i.id} lags ${i.ledger.lagMs(nowOf(i))} ms, the model ${lag}`);
      if (i.ledger.clear !== (owedBy(i).length === 0)) problems.push(`after ${after}: ${i.id} clear is ${i.ledger.clear}`);
      const c = checkpoints.get(i.id);
      for (const e of c ? owedBy(i) : [])
        if (e.record.receivedAt.getTime() < c!.safeUntilMs) problems.push(`after ${after}: ${i.id}'s checkpoint passed ${e.record._id}`);
    }
  };

  await start(0);
  for (const [n, op] of ops.entries()) {
    await step(op);
    check(`op ${n} ${JSON.stringify(op)}`);
    if (problems.length > 0) return problems;
  }
  // Every instance dies; once their checkpoints are stale, one recovery pass brings back whatever they owed.
  for (const i of alive()) crash(i);
  await step({ kind: 'tick', ms: STALE_AFTER_MS + 1 });
  await recover(0, null);
  check('the final recovery');
  // Lost: only what an instance stored while a peer had taken it for dead, when it died before its next checkpoint.
  for (const e of events.filter((x) => ['stored', 'owed'].includes(x.phase) && x.delivered === 0))
    if (!e.instance.exposed) problems.push(`${e.record._id} (${e.instance.id}) was stored and never relayed`);
  return problems;
}

describe('the relay ledger against a model: any order of accept, relay, fail, checkpoint, crash and recovery', function () {
  this.timeout(120_000);

  it(`never lets a checkpoint pass an owed event, and recovery brings back all a dead instance owed (${RUNS} runs)`, async () => {
    const seed = process.env.RELAY_LEDGER_SEED === undefined ? 0x36_2026 : Number(process.env.RELAY_LEDGER_SEED);
    const property = fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 150, size: 'large' }), async (ops) => {
      const problems = await runAgainstModel(ops);
      if (problems.length > 0) throw new Error(problems.join('\n'));
    });
    const result = await fc.check(property, { numRuns: RUNS, seed });
    if (result.failed) assert.fail(`${fc.defaultReportMessage(result)}\n${String(result.errorInstance)}`);
  });
});
