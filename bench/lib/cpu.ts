/**
 * CPU time per process over a measurement (Linux /proc): this process (API, forwarder, worker), the Temporal
 * server and the Mongo-wire server this run started, and the whole machine, so a table can say where the
 * cycles went and how much of the machine other work took (these machines are shared).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';

export interface CpuSnapshot {
  at: number;
  /** CPU milliseconds (user + system) by process label. */
  procs: Record<string, number>;
  machineBusyMs: number;
}

let tickMs: number | null = null;
const ticks = () => (tickMs ??= 1000 / (Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100));

function statFields(pid: string): string[] | null {
  try {
    const raw = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name is in parentheses and may hold spaces: split after it.
    const close = raw.lastIndexOf(')');
    return [raw.slice(raw.indexOf('(') + 1, close), ...raw.slice(close + 2).split(' ')];
  } catch {
    return null;
  }
}

/** The servers this process spawned, labelled by their binary. */
function serverPids(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    const f = statFields(pid);
    // f[0] = comm, f[2] = ppid (fields after comm start at "state").
    if (!f || f[2] !== String(process.pid)) continue;
    const label = ['temporal', 'secantusd', 'mongod'].find((name) => f[0]!.startsWith(name));
    if (label) out[label] = pid;
  }
  return out;
}

export function cpuSnapshot(): CpuSnapshot {
  if (!existsSync('/proc/stat')) return { at: Date.now(), procs: {}, machineBusyMs: Number.NaN };
  const own = process.cpuUsage();
  const procs: Record<string, number> = { 'bench process': (own.user + own.system) / 1000 };
  // Children that have exited (the load generator) are accounted to us as cutime + cstime.
  const self = statFields(String(process.pid));
  if (self) procs['load generator'] = (Number(self[14]) + Number(self[15])) * ticks();
  for (const [label, pid] of Object.entries(serverPids())) {
    const f = statFields(pid);
    // utime and stime are fields 14 and 15 of /proc/pid/stat: indexes 12 and 13 after the comm split.
    if (f) procs[label] = (Number(f[12]) + Number(f[13])) * ticks();
  }
  const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const idle = (cpu[3] ?? 0) + (cpu[4] ?? 0);
  const total = cpu.slice(0, 8).reduce((a, b) => a + b, 0);
  return { at: Date.now(), procs, machineBusyMs: (total - idle) * ticks() };
}

export interface CpuUse {
  wallMs: number;
  byProcess: Record<string, number>;
  /** Busy CPU time of processes this run did not start (other engineers' tests on a shared machine). */
  otherMs: number;
  machineBusyMs: number;
}

export function cpuSince(before: CpuSnapshot, after = cpuSnapshot()): CpuUse {
  const byProcess: Record<string, number> = {};
  for (const [k, v] of Object.entries(after.procs)) byProcess[k] = v - (before.procs[k] ?? 0);
  const ours = Object.values(byProcess).reduce((a, b) => a + b, 0);
  const machineBusyMs = after.machineBusyMs - before.machineBusyMs;
  return { wallMs: after.at - before.at, byProcess, machineBusyMs, otherMs: Math.max(0, machineBusyMs - ours) };
}

/** "temporal 0.41 · ferretdb 0.80 · …" CPU ms per unit of work. */
export function perUnit(use: CpuUse, units: number): string {
  const parts = Object.entries(use.byProcess).map(([k, v]) => `${k} ${(v / units).toFixed(2)}`);
  return `${parts.join(' · ')} · other ${(use.otherMs / units).toFixed(2)} ms CPU per request`;
}
