/**
 * The dev stack's supervisor (scripts/stack/supervisor.ts) with real child processes: one that crashes or is killed
 * with SIGKILL is started again after its backoff and the restart is announced; one whose liveness URL stops
 * answering is killed and started again; stop() ends it for good. With a standby, the process kept ready beside
 * the running one serves as soon as that one exits, and a new standby follows.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Supervised } from '../../scripts/stack/supervisor';
import { eventually } from '../support/eventually';

const node = (script: string) => ({ command: process.execPath, args: ['-e', script], env: process.env, stdio: 'ignore' as const });

describe('dev stack supervisor: a crashed or hung service process is started again', () => {
  const running: Supervised[] = [];
  afterEach(async () => {
    for (const s of running.splice(0)) await s.stop(1_000);
  });

  it('restarts a process killed with SIGKILL, with backoff, and says so; stop() ends it', async () => {
    const said: string[] = [];
    const s = new Supervised({ name: 'worker', ...node('setInterval(() => {}, 1000)'), say: (m) => said.push(m), backoffMs: 100 });
    running.push(s);
    s.start();
    const first = s.pid!;
    const restarted = s.nextStart();
    process.kill(first, 'SIGKILL');
    const child = await restarted;
    assert.notEqual(child.pid, first);
    assert.equal(s.restartCount, 1);
    assert.match(said[0]!, /^worker exited \(SIGKILL\) after \d+ s; restarting it in 0\.1 s \(restart 1\)$/);
    assert.match(said[1]!, /^worker restarted \(pid \d+\)$/);
    await s.stop(1_000);
    assert.equal(s.pid, undefined);
    assert.equal(s.restartCount, 1, 'a stopped process is not started again');
  });

  it('backs off further while a process keeps exiting, up to its cap', async () => {
    const said: string[] = [];
    const s = new Supervised({ name: 'api', ...node('process.exit(3)'), say: (m) => said.push(m), backoffMs: 100, maxBackoffMs: 400 });
    running.push(s);
    s.start();
    const exits = await eventually(
      async () => said.filter((m) => m.startsWith('api exited')),
      (e) => e.length >= 4,
      { what: 'four exits' },
    );
    assert.deepEqual(
      exits.slice(0, 4).map((m) => /restarting it in ([\d.]+) s/.exec(m)?.[1]),
      ['0.1', '0.2', '0.4', '0.4'],
    );
    assert.ok(exits.every((m) => m.includes('(code 3)')));
  });

  it('kills and restarts a process whose liveness URL stops answering 200', async () => {
    let healthy = true;
    let checks = 0;
    const server: Server = createServer((_req, res) => {
      checks += 1;
      res.writeHead(healthy ? 200 : 503);
      res.end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/healthz`;
      const said: string[] = [];
      const s = new Supervised({
        name: 'worker',
        ...node('setInterval(() => {}, 1000)'),
        say: (m) => said.push(m),
        backoffMs: 50,
        liveness: { url, everyMs: 50, timeoutMs: 10_000, failuresBeforeKill: 3, graceMs: 0 },
      });
      running.push(s);
      s.start();
      const first = s.pid;
      // Healthy: left alone for a good many checks.
      await eventually(
        async () => checks,
        (n) => n >= 6,
        { what: 'six liveness checks' },
      );
      assert.equal(s.pid, first);
      assert.equal(s.restartCount, 0);
      const restarted = s.nextStart();
      healthy = false;
      await restarted;
      assert.ok(
        said.some((m) => m === `worker did not answer ${url} 3 times in a row; killing it to restart it`),
        said.join('\n'),
      );
      assert.ok(said.some((m) => m.startsWith('worker exited (SIGKILL)')));
    } finally {
      server.close();
    }
  });

  it('with a standby: the standby serves at once when the running process is killed, and a new standby follows', async () => {
    // A stand-in for the worker: as a standby (WORKER_STANDBY) it says it is ready and answers `serve` by saying it
    // serves; src/temporal/worker-standby.ts is the worker's side of the same messages.
    const script = `
      if (process.env.WORKER_STANDBY === 'true') {
        process.on('message', (m) => { if (m.type === 'serve') process.send({ type: 'serving' }); });
        process.send({ type: 'standby-ready' });
      }
      setInterval(() => {}, 1000);`;
    const said: string[] = [];
    const s = new Supervised({
      name: 'worker',
      ...node(script),
      say: (m) => said.push(m),
      backoffMs: 100,
      standby: { env: { WORKER_STANDBY: 'true' }, delayMs: 100 },
    });
    running.push(s);
    s.start();
    const standbyPid = (lines: string[]) => Number(/its standby \(pid (\d+)/.exec(lines.at(-1) ?? '')?.[1]);

    const first = s.pid!;
    let next = s.nextStart();
    process.kill(first, 'SIGKILL');
    const promoted = await next;
    const serving = new Promise((resolve) => promoted.on('message', (m: { type?: string }) => m.type === 'serving' && resolve(m)));
    await serving;
    assert.equal(promoted.pid, standbyPid(said), said.join('\n'));
    assert.equal(s.pid, promoted.pid);
    assert.equal(s.restartCount, 1);
    assert.match(
      said.at(-1)!,
      /^worker exited \(SIGKILL\) after \d+ s; its standby \(pid \d+(, still starting)?\) serves instead \(restart 1\); a new standby in 0\.1 s$/,
    );

    // The next exit finds a new standby, started after the delay.
    const second = await eventually(
      async () => s.standbyPid,
      (pid) => pid !== undefined,
      { what: 'a new standby' },
    );
    next = s.nextStart();
    process.kill(promoted.pid!, 'SIGKILL');
    const third = await next;
    assert.equal(third.pid, second);
    assert.equal(standbyPid(said), second);
    assert.equal(s.restartCount, 2);

    // stop() ends the running process and its standby.
    const spare = await eventually(
      async () => s.standbyPid,
      (pid) => pid !== undefined,
      { what: 'a third standby' },
    );
    await s.stop(1_000);
    assert.equal(s.pid, undefined);
    assert.throws(() => process.kill(spare!, 0), /ESRCH/);
    assert.throws(() => process.kill(third.pid!, 0), /ESRCH/);
  });
});
