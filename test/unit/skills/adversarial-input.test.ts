/**
 * Every function that reads user or model text, on hostile inputs of the largest size the service accepts,
 * within a time bound. A backtracking regular expression shows up here as seconds or hours (2,500 spaces and a
 * "<" in a commit body once took 27 s in `coAuthors`); linear code takes about a millisecond. The bound leaves
 * a wide margin for a loaded 2-core machine, and a slow call is measured again before it counts, so only a
 * call that is slow every time fails.
 */
import assert from 'node:assert/strict';
import { screenDocuments } from '../../../src/documents/screen';
import { parseEnv } from '../../../src/config/env-files';
import { prNumberOf, ticketKeysOf } from '../../../src/git/message-refs';
import { parseRetryAfter } from '../../../src/llm/retry-after';
import type { EvidenceDocument, ProjectDocument } from '../../../src/skills/documents';
import { forgeFromPageUrl, forgeFromRemote } from '../../../src/skills/forge';
import { readNarrative } from '../../../src/skills/incident/record';
import { factsOf } from '../../../src/skills/fact-check';
import { checkSectionRewrite } from '../../../src/skills/rewrite-check/check-section';
import { escapeText, extractCitationIds, oneLine, safeUrl } from '../../../src/skills/markdown';
import { MAX_ANSWER_CHARS } from '../../../src/skills/model-rewrite';
import { newFootnotes, publishMarkdown } from '../../../src/skills/publish';
import { approachQuote, bestFact, inSentence } from '../../../src/skills/proposal/wording';
import { termsOf } from '../../../src/skills/proposal/terms';
import { isBot } from '../../../src/skills/release-notes/bots';
import { coAuthors, isMergeCommit, parseHeader, tidyTitle } from '../../../src/skills/release-notes/conventional';
import { migrationNote } from '../../../src/skills/release-notes/migration';
import { acceptSectionAnswer, selectAndDraft } from '../../../src/skills/run';
import { parseSemver } from '../../../src/skills/semver';
import { countWords, firstSentence, sentencesOf } from '../../../src/skills/text';
import { DEMO_NOW } from './demo';

/** The schema's limits (src/skills/document-schema.ts) and the model answer's (model-rewrite.ts). */
const MAX = { title: 500, body: 20_000, name: 200, painPoint: 500, url: 2000, version: 100, answer: MAX_ANSWER_CHARS };
const BOUND_MS = 150;
/** A model answer is ten times a body: its bound scales with it. */
const ANSWER_BOUND_MS = 2_500;

/** Runs of the characters the parsers care about, and openings they may try from every position. */
function hostile(n: number): string[] {
  const fill = (unit: string, tail = '') =>
    unit.repeat(Math.max(1, Math.floor((n - tail.length) / unit.length))).slice(0, n - tail.length) + tail;
  const units = [
    ' ',
    '\t',
    '\n',
    ' \n',
    '\n \n',
    '!',
    '.',
    'a',
    'A',
    '1',
    '-',
    '_',
    '*',
    '`',
    '#',
    ':',
    '[',
    '(',
    '<',
    'a.',
    'a!x',
    '[pr:x',
    '[a:b',
    '(#1 ',
    '[WEB-1 ',
    'WEB-1 ',
    'fix ',
    'A-1-',
    '## Migration\n',
    '* feat!: x\n',
    'Co-authored-by: x\n',
    'http://x/',
    'mailto:',
    '```',
  ];
  const tails = ['', 'x', '!x', '<', '\nx', ' x', '\u0000'];
  const out: string[] = [];
  for (const unit of units) for (const tail of ['', 'x', '<']) out.push(fill(unit, tail));
  for (const prefix of [
    'Co-authored-by:',
    'BREAKING CHANGE:',
    'feat(',
    'fix: ',
    'Merge pull request #1 from ',
    '```json',
    'Migration:',
    '[',
    'https://github.com/',
  ]) {
    for (const run of [' ', '\n', 'a', '!', '-', '('])
      for (const tail of tails) out.push(prefix + fill(run, tail).slice(0, n - prefix.length));
  }
  return out;
}

function slowest(fn: (input: string) => unknown, inputs: readonly string[]): { ms: number; input: string } {
  let worst = { ms: 0, input: '' };
  for (const input of inputs) {
    // A slow call is measured again: noise is sometimes slow, a superlinear call always is.
    let ms = Infinity;
    for (let attempt = 0; attempt < 3 && ms > BOUND_MS / 2; attempt++) {
      const started = performance.now();
      fn(input);
      ms = Math.min(ms, performance.now() - started);
    }
    if (ms > worst.ms) worst = { ms, input };
  }
  return worst;
}

const evidence = (body: string, over: Partial<EvidenceDocument> = {}): EvidenceDocument => ({
  kind: 'case_study',
  externalId: 'cs',
  title: 'Case',
  body,
  createdAt: DEMO_NOW,
  customer: 'C',
  industry: 'Retail',
  date: DEMO_NOW,
  ...over,
});

const describeInput = (s: string) => `${JSON.stringify(s.slice(0, 40))}… (${s.length} chars)`;

describe('skills: hostile text of the largest allowed size is handled in linear time', function () {
  // Each case runs a few hundred inputs; the bound that matters is per call (BOUND_MS), not the case's total.
  this.timeout(60_000);

  const cases: [string, number, (input: string) => unknown][] = [
    ['parseHeader (title)', MAX.title, parseHeader],
    ['isMergeCommit (title)', MAX.title, isMergeCommit],
    ['tidyTitle (title)', MAX.title, (t) => tidyTitle(t, { own: ['WEB-1', 'A-1'], trackerPrefixes: new Set(['WEB']) })],
    ['prNumberOf (subject)', MAX.title, prNumberOf],
    ['coAuthors (body)', MAX.body, coAuthors],
    ['migrationNote (body)', MAX.body, (b) => migrationNote({ title: 'feat!: x', body: b })],
    ['ticketKeysOf (message)', MAX.body, (b) => ticketKeysOf(b)],
    ['factsOf (body)', MAX.body, factsOf],
    [
      'publishMarkdown (body)',
      MAX.body,
      (b) =>
        publishMarkdown(
          b,
          new Map([['pr:x', { id: 'pr:x', kind: 'pull_request', title: 'x', url: 'https://x.test/pull/1' }]]),
          newFootnotes(),
        ),
    ],
    ['escapeText (body)', MAX.body, escapeText],
    ['oneLine (body)', MAX.body, oneLine],
    ['countWords (body)', MAX.body, countWords],
    ['firstSentence (body)', MAX.body, firstSentence],
    ['sentencesOf (body)', MAX.body, sentencesOf],
    ['termsOf (body)', MAX.body, termsOf],
    ['readNarrative (incident body)', MAX.body, readNarrative],
    ['approachQuote (case study body)', MAX.body, (b) => approachQuote(evidence(b), 'checkout is slow at peak')],
    [
      'bestFact (outcome, pain point)',
      MAX.painPoint,
      (p) => bestFact(evidence(p, { outcome: p.slice(0, 1000), metrics: [p.slice(0, 300)] }), p),
    ],
    ['inSentence (pain point)', MAX.painPoint, inSentence],
    ['isBot (name, email)', MAX.name, (n) => isBot(n, n)],
    ['safeUrl (url)', MAX.url, safeUrl],
    ['forgeFromRemote (url)', MAX.url, forgeFromRemote],
    ['forgeFromPageUrl (url)', MAX.url, forgeFromPageUrl],
    ['parseSemver (version)', MAX.version, parseSemver],
    ['parseRetryAfter (header)', MAX.url, (h) => parseRetryAfter(h, 0)],
    ['parseEnv (.env file)', MAX.body, parseEnv],
    [
      'screenDocuments (document fields, schema patterns)',
      MAX.body,
      (t) =>
        screenDocuments(
          [
            {
              kind: 'commit',
              externalId: 'x',
              title: t.slice(0, MAX.title),
              body: t,
              url: t.slice(0, MAX.url),
              sha: t.slice(0, 64),
              author: t.slice(0, MAX.name),
              committedAt: t.slice(0, 40),
              version: t.slice(0, MAX.version),
              ticketKeys: [t.slice(0, 50)],
            },
          ],
          new Date(DEMO_NOW),
        ),
    ],
  ];

  for (const [name, size, fn] of cases) {
    it(`${name}, ${size} characters`, () => {
      const worst = slowest(fn, hostile(size));
      assert.ok(worst.ms < BOUND_MS, `${name} took ${worst.ms.toFixed(0)} ms on ${describeInput(worst.input)}`);
    });
  }

  it(`extractCitationIds, acceptSectionAnswer and checkSectionRewrite on model output of ${MAX.answer} characters`, () => {
    const draft = selectAndDraft(
      'incident_rca',
      { incidentId: 'X', severity: 'SEV-3' },
      [
        {
          kind: 'incident',
          externalId: 'X',
          title: 'X',
          body: '',
          createdAt: DEMO_NOW,
          incidentId: 'X',
          severity: 'SEV-3',
          status: 'resolved',
          startedAt: DEMO_NOW,
          services: ['api'],
        } as ProjectDocument,
      ],
      DEMO_NOW,
    );
    const docs: ProjectDocument[] = [];
    const n = MAX.answer - 200;
    const runs = [
      ' '.repeat(n),
      '\n'.repeat(n),
      '[pr:x'.repeat(n / 5),
      '[a:b'.repeat(n / 4),
      '```' + ' '.repeat(n - 4) + 'x',
      '```json' + '\n'.repeat(n - 8) + '`',
      'a1'.repeat(n / 2),
      'Aa-'.repeat(n / 3),
      '- x\n'.repeat(n / 4),
      '1.'.repeat(n / 2),
    ];
    const answers = runs.flatMap((markdown) => [markdown, JSON.stringify({ markdown }).slice(0, MAX.answer)]);
    const summary = draft.sections[0]!;
    for (const [name, fn] of [
      ['extractCitationIds', extractCitationIds],
      ['acceptSectionAnswer', (a: string) => acceptSectionAnswer(a, summary, docs)],
      ['checkSectionRewrite', (a: string) => checkSectionRewrite(a.slice(0, MAX.body), a, new Map())],
    ] as const) {
      const started = performance.now();
      for (const a of answers) fn(a);
      const ms = (performance.now() - started) / answers.length;
      assert.ok(ms < ANSWER_BOUND_MS, `${name} took ${ms.toFixed(0)} ms per answer`);
    }
    // About the most same-citation entries a draft section of the largest size holds, reversed in the rewrite:
    // every pair is scored, and same-citation bullets may trade places.
    const entries = (order: number[]) => order.map((i) => `- Fixed widget ${i} in module Foo${i} [pr:1]`).join('\n');
    const order = Array.from({ length: 450 }, (_, i) => i);
    const draftEntries = entries(order);
    assert.ok(draftEntries.length <= MAX.body);
    const started = performance.now();
    const check = checkSectionRewrite(draftEntries, entries([...order].reverse()), new Map([['pr:1', 'Fix widgets']]));
    const ms = performance.now() - started;
    assert.ok(ms < ANSWER_BOUND_MS, `checkSectionRewrite took ${ms.toFixed(0)} ms on ${order.length} same-citation entries`);
    assert.deepEqual(check.violations, []);
  });

  it('the whole release-notes drafter on 200 commits with hostile bodies of the largest size', () => {
    const bodies = hostile(MAX.body);
    const docs: ProjectDocument[] = bodies.slice(0, 200).map((body, i) => ({
      kind: 'commit',
      externalId: `c${i}`,
      title: `${i % 2 ? 'feat!' : 'fix'}: ${body.slice(0, 480)}`,
      body,
      createdAt: DEMO_NOW,
      sha: `${i.toString(16).padStart(7, '0')}abcdef`,
      author: body.slice(0, 200),
      committedAt: DEMO_NOW,
      version: '1.1.0',
      ticketKeys: ['WEB-1'],
    }));
    const started = performance.now();
    const result = selectAndDraft('release_notes_composer', { fromVersion: '1.0.0', toVersion: '1.1.0', tone: 'formal' }, docs, DEMO_NOW);
    const ms = performance.now() - started;
    assert.ok(result.markdown.length > 0);
    assert.ok(ms < (200 * BOUND_MS) / 10, `${ms.toFixed(0)} ms for 200 hostile commits`);
  });
});
