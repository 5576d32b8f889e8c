/**
 * The relay's ledger (src/billing-intake/relay-ledger.ts) and its invariant: the checkpoint never passes an event
 * still owed, and is in the store whenever an event is acknowledged, so whatever an instance acknowledged and did not
 * relay is found again by a peer's recovery once it dies, including redeliveries it re-accepted. The store is in
 * memory (memory-relay-store.ts); expected values come from a model written here: a list of events, each in one phase
 * of its life (insert under way, stored, answered 200 or 503), who re-accepted its latest redelivery, and what each
 * instance owes.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { CHECKPOINT_LEASE_MS, RelayLedger, STALE_AFTER_MS } from '../../../src/billing-intake/relay-ledger';
import { createLogger } from '../../../src/logging/logger';
import type { WebhookEventRecord } from '../../../src/store/webhook-events';
import { testConfig } from '../../support/config';
import { inboxRecord } from './inbox-record';
import { MemoryRelayStore } from './memory-relay-store';

const logger = createLogger(testConfig({ LOG_LEVEL: 'silent' }), 'test');
const T0 = Date.UTC(2026, 10, 27, 6, 0, 0);
const RUNS = Number(process.env.RELAY_LEDGER_RUNS ?? 400);

/** `monotonic`: the instance's monotonic clock (its wall clock, `now`, by default). */
function ledgerOver(store: MemoryRelayStore, instanceId: string, now: () => number, monotonic = now): RelayLedger {
  return new RelayLedger({
    instanceId,
    checkpoints: store.checkpoints,
    events: store.events,
    logger,
    now: () => new Date(now()),
    monotonicMs: monotonic,
  });
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

  it('recovery reads past a full page of events all received in one millisecond, and relays each once', async () => {
    const store = new MemoryRelayStore();
    store.storeMs = T0;
    await store.checkpoints.save('dead', new Date(T0 - 60_000));
    // 1,200 events in one millisecond (more than two pages), then a few after it.
    const burst = Array.from({ length: 1_200 }, () => stored('dead', T0 - 50_000));
    const after = Array.from({ length: 3 }, (_, i) => stored('dead', T0 - 40_000 + i));
    store.inbox.push(...burst, ...after);
    store.storeMs = T0 + STALE_AFTER_MS + 1;

    const relayed: string[] = [];
    const count = await ledgerOver(store, 'me', () => T0).recover(async (r) => void relayed.push(r._id));
    assert.equal(relayed.length, burst.length + after.length, 'each event relayed once');
    assert.deepEqual(new Set(relayed), new Set([...burst, ...after].map((r) => r._id)));
    assert.equal(count, relayed.length);
    assert.equal(store.saved.has('dead'), false, 'the dead checkpoint is retired');
  });

  it('recovery relays the redeliveries a dead peer re-accepted since its checkpoint, though another instance accepted them first', async () => {
    const store = new MemoryRelayStore();
    await store.checkpoints.save('dead', new Date(T0));
    // Accepted first by a live instance long before; 600 re-accepted by the dead one after its checkpoint (two pages),
    // one before it, one taken over since by a third instance, one it accepted and re-accepted itself.
    const reaccepted = Array.from({ length: 600 }, (_, i) => stored('live', T0 - 60_000 + i));
    const before = stored('live', T0 - 60_000);
    const takenOver = stored('live', T0 - 60_000);
    const own = stored('dead', T0 + 1);
    store.inbox.push(...reaccepted, before, takenOver, own);
    reaccepted.forEach((r, i) => store.redelivered(r._id, 'dead', new Date(T0 + i)));
    store.redelivered(before._id, 'dead', new Date(T0 - 1));
    store.redelivered(takenOver._id, 'dead', new Date(T0 + 5));
    store.redelivered(takenOver._id, 'other', new Date(T0 + 6));
    store.redelivered(own._id, 'dead', new Date(T0 + 7));
    store.storeMs = STALE_AFTER_MS + 1;

    const relayed: string[] = [];
    const count = await ledgerOver(store, 'me', () => T0).recover(async (r) => void relayed.push(r._id));
    assert.deepEqual(new Set(relayed), new Set([...reaccepted, own].map((r) => r._id)), 'what it re-accepted since, and only that');
    assert.equal(relayed.filter((id) => id === own._id).length, 1, 'one it accepted first is relayed once');
    assert.ok(relayed.length <= reaccepted.length + 2, 'a page boundary repeats at most its last event');
    assert.equal(count, relayed.length);
    assert.equal(store.saved.has('dead'), false);
  });

  it('acknowledges within the lease of its last checkpoint write; past it (a stall, a slow store) writes the checkpoint first', async () => {
    const store = new MemoryRelayStore();
    let mono = 0;
    let slowSaveMs = 0;
    let failSave = false;
    const saves: number[] = [];
    const save = store.checkpoints.save;
    store.checkpoints.save = async (id, safeUntil) => {
      if (failSave) throw new Error('store unavailable');
      saves.push(safeUntil.getTime());
      mono += slowSaveMs;
      await save(id, safeUntil);
    };
    const ledger = ledgerOver(
      store,
      'a',
      () => T0 + mono,
      () => mono,
    );

    await ledger.assureCheckpoint();
    assert.equal(saves.length, 1, 'never written: written before the first acknowledgement');
    mono += CHECKPOINT_LEASE_MS - 1;
    await ledger.assureCheckpoint();
    assert.equal(saves.length, 1, 'within the lease: no write');
    // A stall: a peer took it for dead and removed its checkpoint meanwhile.
    mono += STALE_AFTER_MS;
    store.saved.delete('a');
    const ticket = ledger.accepting(new Date(T0 + mono));
    ledger.owe('e1', new Date(T0 + mono));
    await Promise.all([ledger.assureCheckpoint(), ledger.assureCheckpoint(), ledger.assureCheckpoint()]);
    ledger.accepted(ticket);
    assert.deepEqual(saves.slice(1), [T0 + mono], 'written again, once for all who waited, behind the event owed');
    assert.equal(store.saved.get('a')?.safeUntil.getTime(), T0 + mono);

    mono += CHECKPOINT_LEASE_MS;
    failSave = true;
    await assert.rejects(ledger.assureCheckpoint(), /store unavailable/);
    failSave = false;
    // Writes that each outlast the lease never vouch for an acknowledgement.
    slowSaveMs = CHECKPOINT_LEASE_MS;
    await assert.rejects(ledger.assureCheckpoint(), /within its lease/);
    assert.equal(saves.length, 4, 'two writes tried, then it gave up');
    slowSaveMs = CHECKPOINT_LEASE_MS - 1;
    await ledger.assureCheckpoint();
    assert.equal(saves.length, 5);
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

/** Where the first delivery of an event stands: its insert under way, landed, then answered 200, 503, or never stored. */
type Phase = 'inserting' | 'stored' | 'acknowledged' | 'unanswered' | 'dropped';

/** One event of the model: who accepted it first, when, where it is, who re-accepted it, and how often it was relayed. */
interface ModelEvent {
  record: WebhookEventRecord;
  instance: Instance;
  phase: Phase;
  ticket: number;
  /** The instance that acknowledged or was handed its latest redelivery, and that delivery's receipt time by its clock. */
  reacceptedBy: string | null;
  reacceptedAtMs: number;
  /** Some delivery of it was answered 200. */
  acknowledged: boolean;
  /** Its latest delivery was not answered 200 (or not yet): the provider sends it again. */
  retryDue: boolean;
  /** Relays that reached the workflow: by an instance that owed it, or by a peer's recovery. */
  delivered: number;
}

interface Instance {
  id: string;
  skewMs: number;
  ledger: RelayLedger;
  alive: boolean;
  /** What it was handed and has not relayed: event id → owed from (its first receipt time of the event, its clock). */
  owes: Map<string, number>;
  /** When its last checkpoint write was sent, by its monotonic clock (the model's time). */
  leaseFromMs: number;
}

type Op =
  | { kind: 'start'; skewMs: number }
  | { kind: 'begin'; who: number }
  | { kind: 'store'; which: number }
  | { kind: 'handOver'; which: number }
  | { kind: 'lostAnswer'; which: number }
  | { kind: 'insertFails'; which: number }
  | { kind: 'redeliver'; which: number; who: number; answered: boolean }
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
  { arbitrary: fc.record({ kind: fc.constant('lostAnswer' as const), which: index }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('insertFails' as const), which: index }), weight: 1 },
  {
    arbitrary: fc.record({ kind: fc.constant('redeliver' as const), which: index, who: index, answered: fc.boolean() }),
    weight: 2,
  },
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
 * problems found (empty: the ledgers agree with the model). The model's rules, from relay-ledger.ts's contract: an
 * instance owes an event from its insert's start (its ticket) or from when it is handed over (its first time, if
 * handed over twice) until relayed; its checkpoint is the oldest of these (or its now); an acknowledgement past
 * CHECKPOINT_LEASE_MS since its last checkpoint write writes the checkpoint first; a dead instance's recovery brings
 * back the inbox records it accepted since its checkpoint and those it re-accepted last since then.
 */
async function runAgainstModel(ops: Op[]): Promise<string[]> {
  const store = new MemoryRelayStore();
  let time = T0;
  store.storeMs = time;
  const instances: Instance[] = [];
  const events: ModelEvent[] = [];
  const byId = new Map<string, ModelEvent>();
  /** The model's checkpoints: instance id → what it last wrote, and when by the store's clock. */
  const checkpoints = new Map<string, { safeUntilMs: number; heartbeatMs: number }>();
  const problems: string[] = [];
  let peers = 0;

  const alive = () => instances.filter((i) => i.alive);
  const nowOf = (i: Instance) => time + i.skewMs;
  const pick = <T>(list: T[], n: number): T | undefined => (list.length === 0 ? undefined : list[n % list.length]);
  const eventsIn = (...phases: Phase[]) => events.filter((e) => phases.includes(e.phase) && e.instance.alive);
  /** Inserts under way (landed or not) hold an instance's checkpoint at their receipt time. */
  const ticketsOf = (i: Instance) =>
    events.filter((e) => e.instance === i && ['inserting', 'stored'].includes(e.phase)).map((e) => e.record.receivedAt.getTime());
  const heldAt = (i: Instance) => [...ticketsOf(i), ...i.owes.values()];
  const inInbox = (e: ModelEvent) => !['inserting', 'dropped'].includes(e.phase);

  const start = async (skewMs: number) => {
    const id = `i${instances.length}`;
    const ledger = ledgerOver(
      store,
      id,
      () => time + skewMs,
      () => time,
    );
    const instance: Instance = { id, skewMs, alive: true, ledger, owes: new Map(), leaseFromMs: -Infinity };
    instances.push(instance);
    await checkpoint(instance);
    return instance;
  };
  /** What a checkpoint write of `i` leaves in the store, by the model. */
  const wrote = (i: Instance) => {
    checkpoints.set(i.id, { safeUntilMs: Math.min(nowOf(i), ...heldAt(i)), heartbeatMs: time });
    i.leaseFromMs = time;
  };
  const checkpoint = async (i: Instance) => {
    await i.ledger.checkpoint();
    wrote(i);
  };
  /** Hands `e` to `i` (owed from `atMs` unless owed already) and acknowledges it, as the intake does. */
  const acknowledge = async (i: Instance, e: ModelEvent, atMs: number) => {
    i.ledger.owe(e.record._id, new Date(atMs));
    if (!i.owes.has(e.record._id)) i.owes.set(e.record._id, atMs);
    await i.ledger.assureCheckpoint();
    if (time - i.leaseFromMs >= CHECKPOINT_LEASE_MS) wrote(i);
    e.acknowledged = true;
    e.retryDue = false;
  };
  /** A delivery of an event already in the inbox, to `i`: re-accepted in the store, then acknowledged or answered 503. */
  const redeliver = async (e: ModelEvent, i: Instance, answered: boolean) => {
    const atMs = nowOf(i);
    const ticket = i.ledger.accepting(new Date(atMs));
    store.redelivered(e.record._id, i.id, new Date(atMs));
    e.reacceptedBy = i.id;
    e.reacceptedAtMs = atMs;
    if (answered) await acknowledge(i, e, atMs);
    else e.retryDue = true;
    i.ledger.accepted(ticket);
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
          (e) =>
            inInbox(e) &&
            ((e.instance.id === id && e.record.receivedAt.getTime() >= c.safeUntilMs) ||
              (e.reacceptedBy === id && e.reacceptedAtMs >= c.safeUntilMs)),
        ),
      ]),
    );
    const relayed = new Set<string>();
    let calls = 0;
    let relays = 0;
    let failed = false;
    const count = await ledger
      .recover(async (record) => {
        if (failAfter !== null && calls++ === failAfter) throw new Error('Temporal unavailable');
        relays += 1;
        relayed.add(record._id);
        byId.get(record._id)!.delivered += 1;
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
      // The invariant itself: nothing the instance stored or owed was behind its checkpoint, unless a later delivery
      // re-accepted it for another instance (which owes it, or answered 503 and the provider delivers it again).
      const obligations = [
        ...events.filter((x) => x.instance === instance && x.phase === 'stored'),
        ...[...instance.owes.keys()].map((k) => byId.get(k)!),
      ];
      for (const e of obligations) {
        const handedOn = e.reacceptedBy !== null && e.reacceptedBy !== id;
        if (!relayed.has(e.record._id) && !handedOn) problems.push(`${e.record._id}, owed by ${id}, was passed by its checkpoint`);
      }
    }
    const inStale = new Set([...expected.values()].flat().map((e) => e.record._id));
    for (const id of relayed) if (!inStale.has(id)) problems.push(`recovery relayed ${id}, not after a stale checkpoint`);
    if (!failed && count !== relays) problems.push(`recovery said ${count}, relayed ${relays}`);
  };

  const step = async (op: Op) => {
    switch (op.kind) {
      case 'start':
        await start(op.skewMs);
        return;
      case 'begin': {
        const i = pick(alive(), op.who);
        if (!i) return;
        const record = stored(i.id, nowOf(i));
        const e: ModelEvent = {
          record,
          instance: i,
          phase: 'inserting',
          ticket: i.ledger.accepting(record.receivedAt),
          reacceptedBy: null,
          reacceptedAtMs: 0,
          acknowledged: false,
          retryDue: true,
          delivered: 0,
        };
        events.push(e);
        byId.set(record._id, e);
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
        await acknowledge(e.instance, e, e.record.receivedAt.getTime());
        e.instance.ledger.accepted(e.ticket);
        e.phase = 'acknowledged';
        return;
      }
      case 'lostAnswer': {
        // Stored, but the store's answer was lost: answered 503, and nothing owes it.
        const e = pick(eventsIn('stored'), op.which);
        if (!e) return;
        e.instance.ledger.accepted(e.ticket);
        e.phase = 'unanswered';
        return;
      }
      case 'insertFails': {
        const e = pick(eventsIn('inserting'), op.which);
        if (!e) return;
        e.instance.ledger.accepted(e.ticket);
        e.phase = 'dropped';
        return;
      }
      case 'redeliver': {
        const e = pick(events.filter(inInbox), op.which);
        const i = pick(alive(), op.who);
        if (e && i) await redeliver(e, i, op.answered);
        return;
      }
      case 'relay': {
        const owed = alive().flatMap((i) => [...i.owes.keys()].map((id) => ({ i, id })));
        const o = pick(owed, op.which);
        if (!o) return;
        o.i.ledger.settle(o.id);
        o.i.owes.delete(o.id);
        byId.get(o.id)!.delivered += 1;
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
    const byInstance = (a: (string | number)[], b: (string | number)[]) => String(a[0]).localeCompare(String(b[0]));
    if (JSON.stringify(inStore.sort(byInstance)) !== JSON.stringify(modelled.sort(byInstance)))
      problems.push(`after ${after}: checkpoints ${JSON.stringify(inStore)}, the model's ${JSON.stringify(modelled)}`);
    for (const i of alive()) {
      if (i.ledger.owed !== i.owes.size) problems.push(`after ${after}: ${i.id} owes ${i.ledger.owed}, the model ${i.owes.size}`);
      const lag = Math.max(0, ...[...i.owes.values()].map((at) => nowOf(i) - at));
      if (i.ledger.lagMs(nowOf(i)) !== lag) problems.push(`after ${after}: ${i.id} lags ${i.ledger.lagMs(nowOf(i))} ms, the model ${lag}`);
      if (i.ledger.clear !== (heldAt(i).length === 0)) problems.push(`after ${after}: ${i.id} clear is ${i.ledger.clear}`);
      const c = checkpoints.get(i.id);
      for (const at of c ? heldAt(i) : [])
        if (at < c!.safeUntilMs) problems.push(`after ${after}: ${i.id}'s checkpoint passed an event it owes (${at})`);
    }
  };

  await start(0);
  for (const [n, op] of ops.entries()) {
    await step(op);
    check(`op ${n} ${JSON.stringify(op)}`);
    if (problems.length > 0) return problems;
  }
  // Every instance dies. The provider delivers again what was not answered 200, to an instance that then dies too;
  // once their checkpoints are stale, one recovery pass brings back whatever they owed.
  for (const i of alive()) crash(i);
  const last = await start(0);
  for (const e of events.filter((x) => inInbox(x) && x.retryDue)) await redeliver(e, last, true);
  crash(last);
  await step({ kind: 'tick', ms: STALE_AFTER_MS + 1 });
  await recover(0, null);
  check('the final recovery');
  // Nothing acknowledged is lost, whatever the instance that acknowledged it went through.
  for (const e of events.filter((x) => x.acknowledged && x.delivered === 0))
    problems.push(
      `${e.record._id} (${e.instance.id}${e.reacceptedBy ? `, re-accepted by ${e.reacceptedBy}` : ''}) was acknowledged and never relayed`,
    );
  return problems;
}

describe('the relay ledger against a model: any order of accept, redelivery, relay, fail, checkpoint, crash and recovery', function () {
  this.timeout(120_000);

  it(`never lets a checkpoint pass an owed event, and every acknowledged event is relayed though its instances die (${RUNS} runs)`, async () => {
    const seed = process.env.RELAY_LEDGER_SEED === undefined ? 0x36_2026 : Number(process.env.RELAY_LEDGER_SEED);
    const property = fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 150, size: 'large' }), async (ops) => {
      const problems = await runAgainstModel(ops);
      if (problems.length > 0) throw new Error(problems.join('\n'));
    });
    const result = await fc.check(property, { numRuns: RUNS, seed });
    if (result.failed) assert.fail(`${fc.defaultReportMessage(result)}\n${String(result.errorInstance)}`);
  });
});
