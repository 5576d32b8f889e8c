import assert from 'node:assert/strict';
import { checkResult } from '../../../src/skills/check-result';
import type { SkillResult } from '../../../src/skills/result';
import { CASES, runCase } from './cases';

const base = runCase(CASES.find((c) => c.name === 'sev3-INC-2025-022')!);
const headings = base.sections.map((s) => s.heading);
const retrieved = [...base.citations.map((c) => c.id), ...base.retrieval.excluded.map((e) => e.id)];
const copy = (): SkillResult => JSON.parse(JSON.stringify(base)) as SkillResult;
const messages = (r: unknown, ids = retrieved, h = headings) => checkResult(r, ids, h).map((v) => `${v.path} ${v.message}`);

describe('skills: checkResult', () => {
  it('accepts a correct result', () => {
    assert.deepEqual(messages(base), []);
  });

  it('rejects what is not a result', () => {
    assert.deepEqual(messages('nope'), [' must be an object']);
    assert.ok(messages({ ...copy(), sections: 'x' }).some((m) => m.startsWith('/sections must be an array')));
  });

  it('rejects a lost, renamed or reordered section', () => {
    const r = copy();
    r.sections = [r.sections[1], r.sections[0], ...r.sections.slice(2, -1)];
    assert.match(messages(r)[0], /^\/sections headings must be, in order: Summary \| Impact/);
  });

  it('rejects a citation that does not resolve, or was never retrieved', () => {
    const r = copy();
    r.sections[0].citations.push('pr:999');
    assert.ok(messages(r).includes('/sections/0/citations/2 pr:999 is not in result.citations'));
    r.citations.push({ id: 'pr:999', kind: 'pull_request', title: 'x', url: null });
    r.retrieval.used += 1;
    assert.ok(messages(r).includes(`/citations/${r.citations.length - 1}/id pr:999 was not retrieved`));
  });

  it('rejects an inline marker the section does not list, and a listed document nobody cites', () => {
    const r = copy();
    r.sections[1].markdownWithCitations += ' [runbook:rb-search-reindex]';
    r.sections[6].citations = r.sections[6].citations.filter((id) => id !== 'runbook:rb-search-reindex');
    r.sections[5].citations = r.sections[5].citations.filter((id) => id !== 'runbook:rb-search-reindex');
    r.sections[5].markdownWithCitations = r.sections[5].markdownWithCitations.replace(/\[runbook:rb-search-reindex\]/g, '');
    r.sections[6].markdownWithCitations = r.sections[6].markdownWithCitations.replace(/\[runbook:rb-search-reindex\]/g, '');
    const m = messages(r);
    assert.ok(
      m.includes("/sections/1/markdownWithCitations cites runbook:rb-search-reindex inline but not in the section's citations"),
      m.join('\n'),
    );
    assert.ok(m.some((x) => /runbook:rb-search-reindex is listed but no section cites it/.test(x)));
  });

  it('rejects publishable markdown that still carries a marker', () => {
    const r = copy();
    r.sections[2].markdown += ' [incident:INC-2025-022]';
    assert.deepEqual(messages(r), ['/sections/2/markdown the publishable form still carries the marker [incident:INC-2025-022]']);
  });

  it('rejects a used count that does not match, an excluded document without reason, or one both cited and excluded', () => {
    const r = copy();
    r.retrieval.used = 1;
    r.retrieval.excluded.push({ id: 'incident:INC-2025-022', reason: ' ' });
    const m = messages(r);
    assert.ok(m.includes(`/retrieval/used must equal the number of cited documents (${base.citations.length})`));
    assert.ok(m.some((x) => /reason must give a reason/.test(x)));
    assert.ok(m.some((x) => /incident:INC-2025-022 is both cited and excluded/.test(x)));
  });
});
