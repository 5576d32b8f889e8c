import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { repoRoot } from '../support/repo-root';

/**
 * The layers of ARCHITECTURE.md and what each may import (besides itself): an allow-list, so a new arrow is a
 * decision written down here and there, not an accident. The list itself is a layering (checked below: no circle
 * among the layers), so no layer may import one that stands above it. Composition roots wire everything and are
 * exempt; nothing but a root imports a root, so they stand on top.
 */
const MAY_IMPORT: Record<string, string[]> = {
  billing: [],
  skills: [],
  contracts: ['skills'],
  'contracts/workflows': ['billing', 'skills'],
  auth: [],
  config: [],
  logging: ['config'],
  mail: [],
  llm: ['skills'],
  store: ['billing', 'skills', 'auth', 'config', 'mail'],
  temporal: ['config', 'logging', 'contracts/workflows'],
  'temporal/clients': ['temporal', 'contracts/workflows', 'billing', 'skills', 'config'],
  workflows: ['contracts/workflows', 'billing', 'activities'],
  outbound: ['billing', 'config', 'contracts', 'store', 'temporal/clients'],
  documents: ['contracts', 'skills'],
  git: ['documents', 'skills', 'config'],
  'billing-intake': ['billing', 'store', 'temporal', 'temporal/clients', 'contracts/workflows', 'logging', 'config'],
  invocations: ['skills', 'store', 'contracts', 'temporal', 'temporal/clients', 'contracts/workflows', 'config'],
  activities: [
    'billing',
    'skills',
    'store',
    'llm',
    'mail',
    'outbound',
    'config',
    'logging',
    'temporal',
    'temporal/clients',
    'contracts/workflows',
  ],
  api: [
    'auth',
    'billing',
    'billing-intake',
    'config',
    'contracts',
    'documents',
    'invocations',
    'logging',
    'outbound',
    'skills',
    'store',
    'temporal',
    'contracts/workflows',
  ],
  cli: [
    'auth',
    'billing',
    'billing-intake',
    'config',
    'contracts',
    'documents',
    'git',
    'invocations',
    'skills',
    'store',
    'temporal',
    'temporal/clients',
  ],
};
/**
 * Where the processes are wired: these connect and construct, so they import across layers. The worker's roots
 * have a folder of their own (src/worker/, with src/worker.ts the worker process's entry point).
 */
const ROOTS = ['worker.ts', 'worker/worker.ts', 'worker/in-api.ts', 'cli.ts', 'api/server.ts', 'api/compose.ts'];

/** The globs of the determinism lint (eslint.config.mjs): exactly the folders the workflow bundle may load from. */
const WORKFLOW_SAFE = ['src/workflows/**/*.ts', 'src/billing/**/*.ts', 'src/contracts/workflows/**/*.ts'];

/** A module's layer: its top folder under src/, with the workflow contracts and the Temporal clients on floors of their own. */
function layerOf(file: string): string {
  const parts = file.split('/');
  if (parts.length === 1) return file;
  if (parts[0] === 'temporal' && parts[1] === 'clients') return 'temporal/clients';
  if (parts[0] === 'contracts' && parts[1] === 'workflows') return 'contracts/workflows';
  return parts[0]!;
}

/** Every TypeScript module under src/, with the modules it imports by relative path (type-only imports too). */
function importGraph(): Map<string, string[]> {
  const src = join(repoRoot(), 'src');
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.ts')) files.push(path);
    }
  };
  walk(src);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const targets: string[] = [];
    for (const line of text.split('\n')) {
      const from = / from '(\.[^']+)'/.exec(line) ?? /^import '(\.[^']+)'/.exec(line);
      if (!from) continue;
      const base = resolve(dirname(file), from[1]!);
      const target = [`${base}.ts`, join(base, 'index.ts')].find((candidate) => files.includes(candidate));
      if (target) targets.push(relative(src, target));
    }
    graph.set(relative(src, file), targets);
  }
  return graph;
}

/** What a module loads at run time (type-only imports erased, as the workflow bundler sees it), transitively. */
function valueImportClosure(entry: string): string[] {
  const src = join(repoRoot(), 'src');
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    // Whole statements (a formatter may spread an import over lines), from "import"/"export" to its module path.
    const statements = readFileSync(join(src, file), 'utf8').matchAll(/^(?:import|export)\s+(type\s+)?([^;'"]*?)\s*from\s+'(\.[^']+)'/gm);
    for (const m of statements) {
      if (m[1]) continue;
      const names = m[2]!.trim();
      if (
        names.startsWith('{') &&
        names
          .slice(1, -1)
          .split(',')
          .every((n) => n.trim() === '' || n.trim().startsWith('type '))
      )
        continue;
      const base = resolve(dirname(join(src, file)), m[3]!);
      const target = [`${base}.ts`, join(base, 'index.ts')].find((c) => {
        try {
          return statSync(c).isFile();
        } catch {
          return false;
        }
      });
      if (target) visit(relative(src, target));
    }
  };
  visit(entry);
  return [...seen].sort();
}

/** The circles of a directed graph (each as `a → b → a`), found depth first. */
function circlesOf(graph: Map<string, readonly string[]>): string[] {
  const circles: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string) => {
    state.set(node, 'open');
    stack.push(node);
    for (const target of graph.get(node) ?? []) {
      if (state.get(target) === 'open') circles.push([...stack.slice(stack.indexOf(target)), target].join(' → '));
      else if (!state.has(target)) visit(target);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  return circles;
}

describe('architecture: the layout in ARCHITECTURE.md holds', () => {
  const graph = importGraph();

  it('each layer imports only what ARCHITECTURE.md allows it, and never a layer above it (an allow-list; composition roots wire everything)', () => {
    const offenders: string[] = [];
    const unknown = new Set<string>();
    for (const [file, targets] of graph) {
      if (ROOTS.includes(file)) continue;
      const layer = layerOf(file);
      const allowed = MAY_IMPORT[layer];
      if (!allowed) {
        unknown.add(layer);
        continue;
      }
      for (const t of targets) if (layerOf(t) !== layer && !allowed.includes(layerOf(t))) offenders.push(`${file} → ${t}`);
    }
    assert.deepEqual([...unknown], [], 'a folder with no entry in MAY_IMPORT (and ARCHITECTURE.md)');
    assert.deepEqual(offenders, []);
    // The allow-list is a layering: no circle among the layers, so none may import one that stands above it.
    for (const [layer, below] of Object.entries(MAY_IMPORT))
      for (const b of below) assert.ok(MAY_IMPORT[b], `${layer} may import ${b}, a layer with no entry in MAY_IMPORT`);
    assert.deepEqual(circlesOf(new Map(Object.entries(MAY_IMPORT))), [], 'a circle among the layers of MAY_IMPORT');
    // Nothing but a root imports a root: the roots stand above every layer.
    const rootImports = [...graph].flatMap(([file, targets]) =>
      ROOTS.includes(file) ? [] : targets.filter((t) => ROOTS.includes(t)).map((t) => `${file} → ${t}`),
    );
    assert.deepEqual(rootImports, [], 'a module that is no composition root imports one');
  });

  it('workflows import activities for their types only (the bundle must not pull activity code in)', () => {
    const activities = [...graph.keys()].filter((f) => f.startsWith('activities/'));
    const offenders = valueImportClosure('workflows/index.ts').filter((f) => activities.includes(f));
    assert.deepEqual(offenders, []);
  });

  it('only the workflow clients (src/temporal/clients) start, signal, cancel or wait for a workflow', () => {
    const src = join(repoRoot(), 'src');
    const calls = /\.workflow\.(start|signalWithStart|getHandle|execute)\b/;
    const offenders = [...graph.keys()].filter((f) => !f.startsWith('temporal/clients/') && calls.test(readFileSync(join(src, f), 'utf8')));
    assert.deepEqual(offenders, []);
  });

  it('every workflow contract names a workflow the worker registers', () => {
    const src = join(repoRoot(), 'src');
    const exported = [...readFileSync(join(src, 'workflows/index.ts'), 'utf8').matchAll(/export \{ (\w+) \}/g)].map((m) => m[1]);
    const contracts = readdirSync(join(src, 'contracts/workflows')).filter((f) => f !== 'contract.ts' && f !== 'search-attributes.ts');
    const named = contracts.map((f) => /\bname: '(\w+)'/.exec(readFileSync(join(src, 'contracts/workflows', f), 'utf8'))?.[1]);
    assert.deepEqual(named.sort(), [...exported].sort());
  });

  it('the lint rule for deterministic workflow code covers exactly src/workflows, src/billing and src/contracts/workflows, and every module the workflow bundle loads', () => {
    const config = readFileSync(join(repoRoot(), 'eslint.config.mjs'), 'utf8');
    const block = config.slice(config.indexOf("Workflow code runs in Temporal's deterministic sandbox"));
    const globs = [...(/files: \[([^\]]*)\]/.exec(block)?.[1] ?? '').matchAll(/'([^']+)'/g)].map((m) => m[1]!);
    assert.deepEqual(globs, WORKFLOW_SAFE);
    const covered = (file: string) =>
      globs.some((g) => (g.endsWith('/**/*.ts') ? `src/${file}`.startsWith(g.slice(0, -'**/*.ts'.length)) : g === `src/${file}`));
    const bundled = valueImportClosure('workflows/index.ts');
    assert.ok(bundled.length > 10);
    assert.deepEqual(
      bundled.filter((f) => !covered(f)),
      [],
    );
  });

  it('routes do not import each other', () => {
    const offenders = [...graph].flatMap(([file, targets]) =>
      file.startsWith('api/routes/') ? targets.filter((t) => t.startsWith('api/routes/')).map((t) => `${file} → ${t}`) : [],
    );
    assert.deepEqual(offenders, []);
  });

  it('only the store and the composition roots touch the MongoDB driver (everything else gets repositories)', () => {
    const src = join(repoRoot(), 'src');
    const roots = ROOTS;
    const offenders = [...graph.keys()].filter(
      (file) => !file.startsWith('store/') && !roots.includes(file) && /from 'mongodb'/.test(readFileSync(join(src, file), 'utf8')),
    );
    assert.deepEqual(offenders, []);
  });

  it('has no import circle', () => {
    assert.deepEqual(circlesOf(graph), []);
  });
});
