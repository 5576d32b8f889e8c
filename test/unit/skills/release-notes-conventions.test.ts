/**
 * Conventions maintainers write that the release notes read (issue 33's precision analysis against the changelog
 * benchmark's repositories), on a history shaped like expressjs/express and googleapis/gax-nodejs built with git:
 * gitmoji titles ("💚 remove node <11, all failing permanently now", "📝 update people, add ctcpip to TC"), the
 * `doc:` and `examples:` spellings of `docs:`, `cleanup:` and `lint:` types, changes to the project's people ("Add @UlisesGascon
 * to mime repos"), its Contributor Covenant, and "Document …" titles. Each is left out or counted as the project's
 * changelog leaves it out, saying why; the changes users see stay listed.
 */
import assert from 'node:assert/strict';
import type { CommitDocument, ProjectDocument } from '../../../src/skills/documents';
import type { SkillResult } from '../../../src/skills/result';
import { retrievalPlan, selectAndDraft } from '../../../src/skills/run';
import { GitRepo } from '../../support/git-repo';
import { DEMO_NOW } from './demo';
import { importInMemory } from './import-in-memory';
import { retrieve } from './memory-store';

const maintainer = { name: 'Ulises Gascon', email: 'ulises@example.test' };
const helper = { name: 'Chris de Almeida', email: 'chris@example.test' };

function webFramework(): GitRepo {
  const repo = new GitRepo({ start: '2024-09-01T09:00:00Z', author: maintainer });
  repo.git(['remote', 'add', 'origin', 'https://github.com/example/web-framework.git']);
  repo.commit('4.19.2');
  repo.tag('4.19.2');
  repo.commit('💚 remove node <11, all failing permanently now (#5888)');
  repo.commit('📝 update people, add ctcpip to TC (#5889)', undefined, helper);
  repo.commit(':white_check_mark: cover res.redirect with a query string (#5890)');
  repo.commit('✨ add the `depth` option to the urlencoded parser (#5891)', undefined, helper);
  repo.commit('doc: fix the Contributing.md link (#5892)');
  repo.commit('doc: explain the query parser setting (#5893)');
  repo.commit('cleanup: remove debug statements (#5894)', undefined, helper);
  repo.commit('lint: add --fix flag to automatic fix linting issue (#5895)');
  repo.commit('Add @UlisesGascon to mime repos (#5896)');
  repo.commit('Fix Contributor Covenant link definition reference in attribution section (#5897)', undefined, helper);
  repo.commit('Document beta releases expectations (#5898)');
  repo.commit('examples: improve view count in cookie-sessions (#5900)', undefined, helper);
  repo.commit('Remove link renderization in html while using `res.redirect` (#5899)', undefined, helper);
  repo.commit('4.20.0');
  repo.tag('4.20.0');
  return repo;
}

describe('skills: release notes read the conventions maintainers write (web-framework, built with git)', function () {
  this.timeout(30_000);
  let docs: ProjectDocument[];
  before(async () => ({ docs } = await importInMemory(webFramework(), 'web-framework')));
  const notes = (): SkillResult => {
    const inputs = { fromVersion: '4.19.2', toVersion: '4.20.0' };
    return selectAndDraft('release_notes_composer', inputs, retrieve(retrievalPlan('release_notes_composer', inputs), docs), DEMO_NOW);
  };
  /** The entries: bullets of the group sections (the contributors section has bullets of its own). */
  const bullets = (r: SkillResult) =>
    r.sections
      .filter((s) => s.heading !== 'Contributors')
      .flatMap((s) => s.markdown.split('\n'))
      .filter((l) => l.startsWith('- '));
  const reasonOf = (r: SkillResult, pr: number) => {
    const doc = docs.find((d): d is CommitDocument => d.kind === 'commit' && d.prNumber === pr)!;
    return r.retrieval.excluded.find((e) => e.id === `commit:${doc.sha.slice(0, 7)}`)?.reason;
  };
  const section = (r: SkillResult, heading: string) => r.sections.find((s) => s.heading === heading)?.markdown ?? '';

  it('reads a gitmoji as the type it stands for: CI and tests left out, documentation counted, a feature listed in its words', () => {
    const r = notes();
    assert.equal(reasonOf(r, 5888), 'ci');
    assert.equal(reasonOf(r, 5890), 'test');
    assert.match(section(r, 'New features'), /^- Add the `depth` option to the urlencoded parser \(\[#5891\]/m);
    assert.ok(!bullets(r).some((l) => /update people|💚|✨|:white_check_mark:/.test(l)), bullets(r).join('\n'));
  });

  it('reads `doc:` and `examples:` as `docs:` (its contributing guide is internal), and `cleanup:` and `lint:` as internal work', () => {
    const r = notes();
    assert.equal(reasonOf(r, 5892), 'internal docs');
    assert.equal(reasonOf(r, 5894), 'cleanup');
    assert.equal(reasonOf(r, 5895), 'lint');
    // The 📝 change, the query parser's documentation, "Document beta releases expectations" and the example.
    assert.match(section(r, 'Other changes'), /Documentation: 4 changes\./);
  });

  it("leaves out changes to the project's people and its code of conduct, and keeps the redirect fix", () => {
    const r = notes();
    assert.equal(reasonOf(r, 5896), 'project governance');
    assert.equal(reasonOf(r, 5897), 'project governance');
    assert.ok(
      bullets(r).some((l) => l.includes('Remove link renderization in html while using `res.redirect`')),
      r.markdown,
    );
    assert.deepEqual(
      bullets(r).map((l) => /\[#(\d+)\]/.exec(l)?.[1]),
      ['5891', '5899'],
    );
  });
});
