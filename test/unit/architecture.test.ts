import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { repoRoot } from '../support/repo-root';

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

describe('architecture: the layout in ARCHITECTURE.md holds', () => {
  const graph = importGraph();

  it('no module outside src/api imports from it (the API is HTTP only; others use services and contracts)', () => {
    const offenders = [...graph].flatMap(([file, targets]) =>
      file.startsWith('api/') ? [] : targets.filter((t) => t.startsWith('api/')).map((t) => `${file} → ${t}`),
    );
    assert.deepEqual(offenders, []);
  });

  it('routes do not import each other', () => {
    const offenders = [...graph].flatMap(([file, targets]) =>
      file.startsWith('api/routes/') ? targets.filter((t) => t.startsWith('api/routes/')).map((t) => `${file} → ${t}`) : [],
    );
    assert.deepEqual(offenders, []);
  });

  it('the pure domains (billing, skills) import no I/O layer', () => {
    const io = ['store/', 'api/', 'activities/', 'billing-intake/', 'invocations/', 'cli/'];
    const offenders = [...graph].flatMap(([file, targets]) =>
      file.startsWith('billing/') || file.startsWith('skills/') ? targets.filter((t) => io.some((p) => t.startsWith(p))).map((t) => `${file} → ${t}`) : [],
    );
    assert.deepEqual(offenders, []);
  });

  it('only the store and the composition roots touch the MongoDB driver (everything else gets repositories)', () => {
    const src = join(repoRoot(), 'src');
    const roots = ['worker.ts', 'worker-in-api.ts', 'api/compose.ts'];
    const offenders = [...graph.keys()].filter(
      (file) => !file.startsWith('store/') && !roots.includes(file) && /from 'mongodb'/.test(readFileSync(join(src, file), 'utf8')),
    );
    assert.deepEqual(offenders, []);
  });

  it('has no import circle', () => {
    const circles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const stack: string[] = [];
    const visit = (file: string) => {
      state.set(file, 'open');
      stack.push(file);
      for (const target of graph.get(file) ?? []) {
        if (state.get(target) === 'open') circles.push([...stack.slice(stack.indexOf(target)), target].join(' → '));
        else if (!state.has(target)) visit(target);
      }
      stack.pop();
      state.set(file, 'done');
    };
    for (const file of graph.keys()) if (!state.has(file)) visit(file);
    assert.deepEqual(circles, []);
  });
});
