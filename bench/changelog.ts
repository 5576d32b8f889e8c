/**
 * Release notes against the real thing (`npm run bench -- --only=changelog`): each repository of
 * lib/changelog-repos.ts is cloned from a folder of local clones (`--changelog-repos=DIR` or
 * BENCH_CHANGELOG_REPOS; default ~/.cache/skills-billing-service/changelog-repos; each found as DIR/owner/name,
 * DIR/owner+name or DIR/owner+name/repo, bare or not), imported by import-git's own code into this run's store
 * (the first-contribution index included), and its last 10 releases that its changelog describes are drafted
 * through the skill's retrieval plan and scored against their changelog sections (lib/changelog-score.ts).
 * Works offline; a repository whose clone is missing is skipped with a line saying how to get it.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { importGitHistory } from '../src/git/import';
import { DEFAULT_TAG_PREFIXES, tagVersion } from '../src/git/tags';
import type { CommitDocument, ProjectDocument, PullRequestDocument } from '../src/skills/documents';
import { forgeFromWebUrl } from '../src/skills/forge';
import { selectAndDraft } from '../src/skills/run';
import { compareSemver, inVersionRange, parseSemver } from '../src/skills/semver';
import { DocumentRepository } from '../src/store/documents';
import { ensureIndexes } from '../src/store/indexes';
import { connectStore } from '../src/store/mongo';
import { CHANGELOG_REPOS, type ChangelogRepo } from './lib/changelog-repos';
import {
  draftEntries,
  emptySections,
  parseChangelog,
  scoreDraft,
  type ChangelogSection,
  type RangeChange,
  type Score,
} from './lib/changelog-score';
import { repoRoot } from './lib/paths';
import { row, type BenchOutcome, type Row } from './lib/report';
import { retrieveTimed } from './lib/retrieve';
import { benchConfig } from './lib/service';
import type { BenchStack, RunContext } from './lib/stack';

const NAME = 'changelog';
const RELEASES = 10;
const TARGETS = { recall: 0.95, precision: 0.9, sectionAgreement: 0.9 };
const DRAFT_NOW = '2026-01-01T00:00:00.000Z';
/** The documentation's release-notes example (docs/skills.md): this run's draft of it must be the block, byte for byte. */
const README_EXAMPLE = { repo: 'googleapis/gaxios', fromVersion: '6.7.1', toVersion: '7.0.0' };

function readmeExample(): string | undefined {
  const readme = readFileSync(join(repoRoot(), 'docs', 'skills.md'), 'utf8');
  return /For example, `googleapis\/gaxios`[^]*?```markdown\n([^]*?)```/.exec(readme)?.[1];
}

/** Where the clones are: --changelog-repos=DIR, BENCH_CHANGELOG_REPOS, or the shared cache's folder. */
export function clonesFolder(argv = process.argv, env = process.env): string {
  const flag = argv.find((a) => a.startsWith('--changelog-repos='))?.slice('--changelog-repos='.length);
  return flag || env.BENCH_CHANGELOG_REPOS || join(homedir(), '.cache', 'skills-billing-service', 'changelog-repos');
}

function findClone(dir: string, repo: string): string | undefined {
  const [owner, name] = repo.split('/') as [string, string];
  return [join(dir, owner, name), join(dir, `${owner}+${name}`, 'repo'), join(dir, `${owner}+${name}`), join(dir, name)].find((p) =>
    existsSync(p),
  );
}

const git = (dir: string, args: string[]) => execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });

interface ReleaseScore {
  version: string;
  from: string;
  score: Score;
  empty: string[];
  draftChars: number;
  range?: RangeChange[];
}

/** How many of the section's entries that name a PR or commit name one of the range. */
export function referencedInRange(section: ChangelogSection, range: readonly RangeChange[] = []): number {
  const prs = new Set(range.map((c) => c.prNumber));
  const shas = range.map((c) => c.sha?.slice(0, 7)).filter((s): s is string => s !== undefined);
  return section.entries.filter(
    (e) => e.prs.some((n) => prs.has(n)) || e.shas.some((s) => shas.some((x) => x.startsWith(s) || s.startsWith(x))),
  ).length;
}

interface RepoResult {
  repo: string;
  style: string;
  releases: ReleaseScore[];
  importMs: number;
  skipped?: string;
  /** For the README's example repository: whether the README shows what this run drafts. */
  readmeExample?: 'identical' | 'differs';
}

/** The version a compare link starts from, read with the repository's tag prefixes. */
function versionOfTag(tag: string, prefixes: readonly string[]): string | undefined {
  return tagVersion(decodeURIComponent(tag), [...prefixes, ...DEFAULT_TAG_PREFIXES]);
}

/**
 * The last RELEASES final releases the changelog describes (a section with entries) that are tagged, newest
 * first, each with the releases its section may start from, nearest first: the compare link's when it has one;
 * else the next section down (a pre-release section that only says it was "released as" this one does not
 * count) and, when that is a pre-release of the same version, the release below its first pre-release (some
 * projects list a release's pre-release changes again in its own section, others only what came after the last
 * pre-release; measureRepo takes the start that puts more of the section's referenced changes in the range).
 */
export function releasesToDraft(sections: readonly ChangelogSection[], tagged: ReadonlySet<string>, prefixes: readonly string[]) {
  const out: { section: ChangelogSection; from: string[] }[] = [];
  const core = (v: string) => {
    const p = parseSemver(v);
    return p ? `${p.major}.${p.minor}.${p.patch}` : v;
  };
  sections.forEach((section, i) => {
    if (out.length >= RELEASES || section.entries.length === 0 || !tagged.has(section.version)) return;
    if ((parseSemver(section.version)?.prerelease.length ?? 1) > 0) return;
    const usable = (v: string | undefined): v is string => v !== undefined && tagged.has(v) && compareSemver(v, section.version) < 0;
    const linked = section.compareFrom ? versionOfTag(section.compareFrom, prefixes) : undefined;
    if (usable(linked)) {
      out.push({ section, from: [linked] });
      return;
    }
    const below = sections.slice(i + 1).filter((s) => !(/released as/i.test(s.body) && s.entries.length === 0));
    const next = below[0]?.version;
    const beforePre = below.find((s) => core(s.version) !== core(section.version))?.version;
    const from = [next, beforePre].filter(usable);
    if (from.length > 0) out.push({ section, from: [...new Set(from)] });
  });
  return out;
}

function rangeChanges(docs: readonly ProjectDocument[], from: string, to: string): RangeChange[] {
  return docs
    .filter((d): d is CommitDocument | PullRequestDocument => d.kind === 'commit' || d.kind === 'pull_request')
    .filter((d) => d.version !== undefined && inVersionRange(d.version, from, to))
    .map((d) =>
      d.kind === 'commit'
        ? { title: d.title, ...(d.prNumber ? { prNumber: d.prNumber } : {}), sha: d.sha }
        : { title: d.title, prNumber: d.number },
    );
}

async function measureRepo(spec: ChangelogRepo, clones: string, workDir: string, repo: DocumentRepository): Promise<RepoResult> {
  const base = { repo: spec.repo, style: spec.style, releases: [], importMs: 0 };
  const source = findClone(clones, spec.repo);
  if (!source)
    return {
      ...base,
      skipped: `no clone of ${spec.repo} in ${clones} (git clone https://github.com/${spec.repo} ${join(clones, spec.repo)})`,
    };
  const dir = join(workDir, spec.repo.replace('/', '+'));
  if (!existsSync(dir)) git(workDir, ['clone', '--quiet', '--no-checkout', source, dir]);
  let changelog: string;
  try {
    changelog = git(dir, ['show', `HEAD:${spec.changelog}`]);
  } catch {
    return { ...base, skipped: `${spec.repo} has no ${spec.changelog} at its default branch's head` };
  }
  const project = `changelog-${spec.repo.replace(/[^A-Za-z0-9]+/g, '-').toLowerCase()}`;
  const started = Date.now();
  await importGitHistory({
    repo: dir,
    project,
    documents: repo,
    refs: { issuePrefix: 'GH' },
    now: () => new Date(),
    say: () => undefined,
    forge: forgeFromWebUrl(`https://github.com/${spec.repo}`, 'github') ?? null,
    ...(spec.tagPrefixes ? { tagPrefixes: spec.tagPrefixes } : {}),
    ...(spec.path ? { path: spec.path } : {}),
  });
  const importMs = Date.now() - started;
  const tagged = new Set(await repo.latestReleases(project, 5000));
  const releases: ReleaseScore[] = [];
  for (const { section, from: starts } of releasesToDraft(parseChangelog(changelog), tagged, spec.tagPrefixes ?? DEFAULT_TAG_PREFIXES)) {
    let best: ReleaseScore | undefined;
    for (const from of starts) {
      // As the service does: the project's listing setting stands in for inputs that name none.
      const inputs = { fromVersion: from, toVersion: section.version, ...(spec.listing ? { listing: spec.listing } : {}) };
      const { docs } = await retrieveTimed(repo, project, 'release_notes_composer', inputs);
      const result = selectAndDraft('release_notes_composer', inputs, docs, DRAFT_NOW);
      const range = rangeChanges(docs, from, section.version);
      const score = scoreDraft(section, draftEntries(result.sections), range, result.markdown);
      const candidate = {
        version: section.version,
        from,
        score,
        empty: emptySections(result.sections),
        draftChars: result.markdown.length,
      };
      // A farther start only when it puts more of the section's referenced changes in the range.
      if (!best || referencedInRange(section, range) > referencedInRange(section, best.range)) best = { ...candidate, range };
    }
    if (best) releases.push(best);
  }
  let example: RepoResult['readmeExample'];
  if (spec.repo === README_EXAMPLE.repo) {
    const { repo: _repo, ...inputs } = README_EXAMPLE;
    const { docs } = await retrieveTimed(repo, project, 'release_notes_composer', inputs);
    example = selectAndDraft('release_notes_composer', inputs, docs, DRAFT_NOW).markdown === readmeExample() ? 'identical' : 'differs';
  }
  return { ...base, releases: releases.map(({ range: _range, ...r }) => r), importMs, ...(example ? { readmeExample: example } : {}) };
}

const mean = (xs: readonly number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : Number.NaN);

export async function benchChangelog(stack: BenchStack, _run: RunContext): Promise<BenchOutcome> {
  const clones = clonesFolder();
  const config = benchConfig(stack, 'changelog');
  const store = await connectStore(config.mongo.uri, config.mongo.dbName, 'bench-changelog');
  const workDir = join(stack.dataDir, 'changelog-clones');
  mkdirSync(workDir, { recursive: true });
  const results: RepoResult[] = [];
  try {
    const db = store.client.db('bench_changelog');
    await db.dropDatabase();
    await ensureIndexes(db);
    const repo = new DocumentRepository(db);
    for (const spec of CHANGELOG_REPOS) {
      process.stderr.write(`[bench] changelog: ${spec.repo}…\n`);
      results.push(await measureRepo(spec, clones, workDir, repo));
    }
  } finally {
    await store.close();
  }

  const rows: Row[] = [];
  const measured = results.filter((r) => r.releases.length > 0);
  for (const r of measured) {
    const s = r.releases.map((x) => x.score);
    rows.push(row(NAME, `${r.repo}: entry recall (mean of ${r.releases.length} releases)`, '%', 100 * mean(s.map((x) => x.recall))));
    rows.push(row(NAME, `${r.repo}: entry precision`, '%', 100 * mean(s.map((x) => x.precision))));
    rows.push(row(NAME, `${r.repo}: section agreement`, '%', 100 * mean(s.map((x) => x.sectionAgreement))));
    rows.push(row(NAME, `${r.repo}: length ratio (draft / changelog)`, 'x', mean(s.map((x) => x.lengthRatio).filter(Number.isFinite))));
  }
  const all = (f: (s: Score) => number) => mean(measured.map((r) => mean(r.releases.map((x) => f(x.score)))));
  const empty = measured.flatMap((r) => r.releases.flatMap((x) => x.empty.map((h) => `${r.repo} ${x.version}: ${h}`)));
  if (measured.length > 0) {
    rows.push(
      row(NAME, `mean entry recall over ${measured.length} repositories`, '%', 100 * all((s) => s.recall), {
        target: '≥ 95%',
        met: all((s) => s.recall) >= TARGETS.recall,
      }),
    );
    rows.push(
      row(NAME, 'mean entry precision', '%', 100 * all((s) => s.precision), {
        target: '≥ 90%',
        met: all((s) => s.precision) >= TARGETS.precision,
      }),
    );
    rows.push(
      row(NAME, 'mean section agreement', '%', 100 * all((s) => s.sectionAgreement), {
        target: '≥ 90%',
        met: all((s) => s.sectionAgreement) >= TARGETS.sectionAgreement,
      }),
    );
    rows.push(row(NAME, 'empty sections in all documents', '', empty.length, { target: '0', met: empty.length === 0 }));
  } else rows.push(row(NAME, `no repository measured (clones looked for in ${clones})`, '', Number.NaN, { met: false }));
  const example = results.find((r) => r.readmeExample);
  if (example)
    rows.push(
      row(
        NAME,
        `docs/skills.md example (${README_EXAMPLE.repo} ${README_EXAMPLE.fromVersion} → ${README_EXAMPLE.toVersion}) is this run's draft`,
        '',
        example.readmeExample === 'identical' ? 1 : 0,
        {
          target: 'identical',
          met: example.readmeExample === 'identical',
        },
      ),
    );

  const notes = [
    `Changelog (clones from ${clones}; each release drafted from the release its changelog section starts from, scored against that section):`,
    ...results.flatMap((r) =>
      r.skipped
        ? [`  ${r.repo}: skipped: ${r.skipped}`]
        : [
            `  ${r.repo} (${r.style}; imported in ${(r.importMs / 1000).toFixed(1)} s):`,
            ...r.releases.map(
              (x) =>
                `    ${x.from} → ${x.version}: recall ${x.score.matched}/${x.score.matchable} (${x.score.changelogEntries - x.score.matchable} not in the range), precision ${x.score.draftMatched}/${x.score.draftEntries}, sections ${x.score.agreeing}/${x.score.classified}, length ${x.score.lengthRatio.toFixed(2)}x` +
                (x.score.missed.length
                  ? `\n      missed: ${x.score.missed
                      .slice(0, 3)
                      .map((t) => t.slice(0, 90))
                      .join(' | ')}`
                  : '') +
                (x.score.extra.length
                  ? `\n      not in the changelog: ${x.score.extra
                      .slice(0, 3)
                      .map((t) => t.slice(0, 90))
                      .join(' | ')}`
                  : '') +
                (x.empty.length ? `\n      empty sections: ${x.empty.join(', ')}` : ''),
            ),
          ],
    ),
    ...(empty.length ? [`  empty sections: ${empty.join('; ')}`] : []),
  ];
  return { name: NAME, rows, notes, details: { clones, results } };
}
