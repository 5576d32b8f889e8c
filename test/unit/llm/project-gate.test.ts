import assert from 'node:assert/strict';
import { createProjectGate } from '../../../src/llm/project-gate';

const never = () => new AbortController().signal;
const granted = (t: Awaited<ReturnType<ReturnType<typeof createProjectGate>['acquire']>>) => {
  assert.ok('release' in t, `granted, not ${JSON.stringify(t)}`);
  return t.release;
};

describe("a worker's turns at the model, per project", () => {
  it('gives each project its own turns: a project at its bound never holds up another', async () => {
    const gate = createProjectGate(1, 2);
    const a1 = granted(await gate.acquire('a', never()));
    const b1 = granted(await gate.acquire('b', never()));
    assert.deepEqual(gate.load('a'), { running: 1, waiting: 0 });
    assert.deepEqual(gate.load('b'), { running: 1, waiting: 0 });
    a1();
    b1();
    assert.deepEqual(
      [gate.load('a'), gate.load('b')],
      [
        { running: 0, waiting: 0 },
        { running: 0, waiting: 0 },
      ],
    );
  });

  it('queues a project past its bound in arrival order, refuses it past its waiting room, and passes each turn on', async () => {
    const gate = createProjectGate(1, 2);
    const order: string[] = [];
    const first = granted(await gate.acquire('a', never()));
    const second = gate.acquire('a', never()).then((t) => (order.push('second'), granted(t)));
    const third = gate.acquire('a', never()).then((t) => (order.push('third'), granted(t)));
    assert.deepEqual(await gate.acquire('a', never()), { refused: 'busy' }, 'a fourth finds the waiting room full');
    assert.deepEqual(gate.load('a'), { running: 1, waiting: 2 });
    // Another project is not affected by a's queue.
    granted(await gate.acquire('b', never()))();

    first();
    const releaseSecond = await second;
    assert.deepEqual(order, ['second']);
    assert.deepEqual(gate.load('a'), { running: 1, waiting: 1 });
    releaseSecond();
    releaseSecond(); // twice is once
    const releaseThird = await third;
    assert.deepEqual(order, ['second', 'third']);
    releaseThird();
    assert.deepEqual(gate.load('a'), { running: 0, waiting: 0 });
  });

  it('a waiter whose signal aborts leaves the queue, and the turn goes to the next', async () => {
    const gate = createProjectGate(2, 3);
    const r1 = granted(await gate.acquire('p', never()));
    const r2 = granted(await gate.acquire('p', never()));
    const quitting = new AbortController();
    const gaveUp = gate.acquire('p', quitting.signal);
    const patient = gate.acquire('p', never());
    quitting.abort();
    assert.deepEqual(await gaveUp, { refused: 'gave-up' });
    assert.deepEqual(gate.load('p'), { running: 2, waiting: 1 });
    r1();
    granted(await patient)();
    r2();
    assert.deepEqual(gate.load('p'), { running: 0, waiting: 0 });
    assert.deepEqual(await gate.acquire('p', AbortSignal.abort()), { refused: 'gave-up' }, 'an aborted signal gets no turn');
  });

  it('with no waiting room, a project past its bound is refused at once', async () => {
    const gate = createProjectGate(1, 0);
    const r = granted(await gate.acquire('x', never()));
    assert.deepEqual(await gate.acquire('x', never()), { refused: 'busy' });
    r();
    granted(await gate.acquire('x', never()))();
  });
});
