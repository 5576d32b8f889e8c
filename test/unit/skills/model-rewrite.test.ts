/**
 * A model rewrites the draft section by section; each answer is shown only when it keeps the draft's facts
 * where they were. The refused rewrites are the ones seen from small real models: an entry moved to the wrong
 * version, an entry duplicated into Highlights, a link stripped, an uncited paragraph, a paragraph repeated,
 * a citation dropped.
 */
import assert from 'node:assert/strict';
import { acceptSectionAnswer, composeModelResult, rewriteTargets, sectionMessages } from '../../../src/skills/run';
import { CASES, retrievedFor, runCase, type DemoCase } from './cases';

const caseOf = <S extends DemoCase['skill']>(name: string) => CASES.find((x) => x.name === name) as DemoCase<S>;
const answer = (markdown: string) => JSON.stringify({ markdown });

function fixture(name: string) {
  const c = caseOf(name);
  const docs = retrievedFor(c);
  const draft = runCase(c, docs);
  const at = (heading: string) => draft.sections.findIndex((s) => s.heading === heading);
  const verdict = (heading: string, edit: (markdown: string) => string) =>
    acceptSectionAnswer(answer(edit(draft.sections[at(heading)]!.markdownWithCitations)), draft.sections[at(heading)]!, docs);
  const refusal = (heading: string, edit: (markdown: string) => string) => {
    const v = verdict(heading, edit);
    assert.equal(v.ok, false, `expected a refusal of the rewrite of ${heading}`);
    return v.ok ? '' : v.reason;
  };
  return { c, docs, draft, at, verdict, refusal };
}

describe('skills: a model rewrites the draft section by section, checked for facts', () => {
  const rn = fixture('neutral-1.0.0-1.2.1');
  const rn2 = fixture('neutral-1.2.1-2.0.0');
  const rca = fixture('sev1-INC-2025-014');

  it('asks for one section at a time: the skill’s instructions and rules, then the section’s text with its markers', () => {
    const i = rca.at('Root cause');
    const [system, user] = sectionMessages(rca.c.skill, rca.c.inputs, rca.draft, i);
    assert.match(system!.content, /stays labelled "Hypothesis"/);
    assert.match(system!.content, /Answer with one JSON object and nothing else: \{"markdown": "the rewritten text"\}/);
    assert.doesNotMatch(system!.content, /introduction/, 'the whole section is sent, so no lead rule');
    // Nothing else: the documents stay out, as the draft already holds the facts it chose (a small model copied
    // documents into its answers).
    assert.equal(user!.content, `Section: Root cause\nText to rewrite:\n${rca.draft.sections[i]!.markdownWithCitations}`);
  });

  it('sends only the lead of a section whose entries follow it: the entries stay as written and follow the answer', () => {
    // Highlights is a summary that cites nothing (it is not sent, see below); Breaking changes leads its entries.
    const i = rn2.at('Breaking changes');
    const section = rn2.draft.sections[i]!;
    const [system, user] = sectionMessages(rn2.c.skill, rn2.c.inputs, rn2.draft, i);
    const [lead, entries] = [section.markdownWithCitations.split('\n\n')[0]!, section.markdownWithCitations.split('\n\n')[1]!];
    assert.equal(user!.content, `Section: Breaking changes\nText to rewrite:\n${lead}`);
    assert.match(system!.content, /only the introduction of the section: the list under it is not shown/);
    const rewritten = lead.replace('These changes need action before upgrading.', 'Act on these changes before you upgrade.');
    assert.notEqual(rewritten, lead);
    const v = acceptSectionAnswer(answer(rewritten), section, rn2.docs, [], { rest: entries });
    assert.ok(v.ok, v.ok ? '' : v.reason);
    assert.equal(v.markdown, `${rewritten}\n\n${entries}`);
  });

  it('does not send the sections with nothing to rewrite: the contributors, the changelog link, a summary that cites nothing', () => {
    const sent = rewriteTargets(rn2.c.skill, rn2.draft).map((i) => rn2.draft.sections[i]!.heading);
    // New features, Improvements and Fixes are entries only (in their authors' words): nothing for a model to write;
    // Highlights here is a count that cites nothing.
    assert.deepEqual(sent, ['Breaking changes']);
  });

  it('accepts a rewrite of the framing that keeps every entry, fact and citation', () => {
    const v = rn2.verdict('New features', (m) => `Three things to try in this release:\n\n${m}`);
    assert.ok(v.ok, v.ok ? '' : v.reason);
    assert.ok(v.facts.total > 10);
    assert.equal(v.facts.kept, v.facts.total);
  });

  it('refuses an entry moved to the wrong version, naming the version', () => {
    const reason = rn.refusal('New features', (m) => m.replace('; 1.1.0)', '; 1.2.0)'));
    assert.match(
      reason,
      /^‘1\.1\.0’ \(version\) is missing from the entry citing commit:8858113, pr:21, ticket:WEB-12 \(rule: facts; sentence: “- Add saved searches to the orders list \(\[#21\], \[WEB-12\]; 1\.1\.0\) by Priya Raman”\); ‘1\.2\.0’ \(version\) in the entry citing commit:8858113, pr:21, ticket:WEB-12 is in neither the draft nor its sources \(rule: facts; sentence: “.*1\.2\.0.*”\)$/,
    );
  });

  it('refuses an entry duplicated, or copied into Highlights from its section', () => {
    const sso = (m: string) => m.split('\n').find((l) => l.includes('single sign-on'))!;
    assert.match(
      rn2.refusal('New features', (m) => `${m}\n${sso(m)}`),
      /^the entry citing commit:f78da18, pr:51, ticket:WEB-31 appears 2 times \(the draft has 1\) \(rule: entries; sentence: “- Add single sign-on with SAML 2\.0 .*”\)$/,
    );
    const darkMode = rn2.draft.sections[rn2.at('New features')]!.markdownWithCitations.split('\n').find((l) => l.includes('dark mode'))!;
    assert.match(
      rn2.refusal('Highlights', (m) => `${m}\n${darkMode}`),
      /^it cites pr:52, commit:2674a39, ticket:WEB-32, which the section does not$/,
    );
  });

  it('refuses a stripped link, naming it', () => {
    const reason = rn2.refusal('Fixes', (m) => m.replace('[#53](https://github.com/acme/acme-web/pull/53)', '#53'));
    assert.match(reason, /‘https:\/\/github\.com\/acme\/acme-web\/pull\/53’ \(link\) is missing/);
  });

  it('refuses a factual paragraph without a citation, and a number the sources do not state', () => {
    assert.match(
      rn2.refusal('Fixes', (m) => `${m}\n\nCheckout is now 40% faster.`),
      /an uncited sentence states ‘40%’ \(number\), which the draft does not \(rule: facts; sentence: “Checkout is now 40% faster\.”\)/,
    );
    assert.match(
      rn2.refusal('Fixes', (m) => m.replace('leading zeros', 'leading zeros in 3 regions')),
      /‘3’ \(number\) in the entry citing .* is in neither the draft nor its sources/,
    );
  });

  it('refuses an RCA rewrite that repeats a paragraph or drops a citation', () => {
    assert.match(
      rca.refusal('Impact', (m) => `${m}\n\n${m.split('\n\n')[0]}`),
      /^a sentence of the text citing incident:INC-2025-014 appears 2 times \(rule: repeated; sentence: “For 51 minutes about 18% .*”\)/,
    );
    // The Impact bullet of SENTRY-88 loses its citation: its entry is missing, and uncited text now states its counts.
    const reason = rca.refusal('Impact', (m) => m.replace(/ \[error_issue:SENTRY-88\]/, ''));
    assert.match(
      reason,
      /^the entry citing error_issue:SENTRY-88 is missing \(rule: entries; sentence: “- SENTRY-88: 12,480 error events, 2,310 users affected”\); an uncited sentence states ‘SENTRY-88’ \(reference\)/,
    );
  });

  it('drops the section heading a model writes in front of its answer (the document prints it already)', () => {
    const i = rca.at('Root cause');
    const section = rca.draft.sections[i]!;
    const text = section.markdownWithCitations;
    for (const head of ['## Root cause\n\n', '**Root cause**\n\n', 'Root cause:\n', 'Root cause: ']) {
      const v = acceptSectionAnswer(answer(`${head}${text}`), section, rca.docs);
      assert.ok(v.ok, v.ok ? '' : `${JSON.stringify(head)}: ${v.reason}`);
      assert.equal(v.markdown, text, JSON.stringify(head));
      assert.equal(v.unchanged, true);
    }
  });

  it('refuses what is not the JSON asked for, a bare heading, HTML, or a citation the section does not make', () => {
    const features = rn2.draft.sections[rn2.at('New features')]!;
    const bad = (text: string) => {
      const v = acceptSectionAnswer(text, features, rn2.docs);
      return v.ok ? '' : v.reason;
    };
    assert.equal(bad('Sure! Here it is.'), 'the answer is not JSON');
    assert.equal(bad(JSON.stringify({ text: 'x' })), 'the answer must be {"markdown": string}');
    assert.equal(bad(answer('## New features')), 'the answer is only the section heading');
    assert.equal(bad(answer(`<p>${features.markdownWithCitations}</p>`)), 'the answer has <p>, which Markdown shows as HTML, not text');
    // What the 0.5B model wrote: tag-like text a renderer hides.
    const casual = fixture('casual-1.2.1-2.0.0');
    const fixes = casual.draft.sections[casual.at('Fixes')]!;
    const [lead, entries] = [
      fixes.markdownWithCitations.split('\n\n')[0]!,
      fixes.markdownWithCitations.split('\n\n').slice(1).join('\n\n'),
    ];
    const tagLike = acceptSectionAnswer(answer(`<${lead}>`), fixes, casual.docs, [], { rest: entries });
    assert.equal(tagLike.ok ? '' : tagLike.reason, `the answer has <${lead}>, which Markdown shows as HTML, not text`);
    // Code spans and autolinks are text.
    const code = acceptSectionAnswer(answer(`${lead} Run \`cli --to <version>\` <https://example.com/x>.`), fixes, casual.docs, [], {
      rest: entries,
    });
    assert.ok(code.ok || !/HTML/.test(code.reason), code.ok ? '' : code.reason);
    assert.match(bad(answer(`${features.markdownWithCitations} [pr:50]`)), /^it cites pr:50, which the section does not$/);
    assert.ok(
      acceptSectionAnswer(`\`\`\`json\n${answer(features.markdownWithCitations)}\n\`\`\``, features, rn2.docs).ok,
      'a code fence around the JSON is tolerated',
    );
    const raw = `{\n  "markdown": "${features.markdownWithCitations.replace(/"/g, '\\"')}"\n}`;
    assert.ok(raw.includes('\n- '), 'the answer has a raw line break inside its string');
    assert.ok(acceptSectionAnswer(raw, features, rn2.docs).ok, 'raw line breaks inside the JSON string are tolerated');
  });

  it('composes the result: the accepted sections marked as the model’s, publishable markdown, the model’s report', () => {
    const i = rn2.at('Highlights');
    const text = rn2.draft.sections[i]!.markdownWithCitations.replace('Since 1.2.1:', 'Compared with 1.2.1:');
    const result = composeModelResult(rn2.c.skill, rn2.c.inputs, rn2.draft, rn2.docs, 'tiny', {
      accepted: new Map([[i, text]]),
      sections: rn2.draft.sections.map((s, j) => ({ heading: s.heading, outcome: j === i ? 'accepted' : 'kept', durationMs: 1 })),
      notes: [],
    });
    assert.equal(result.generator, 'llm:tiny');
    assert.deepEqual(
      result.sections.map((s) => s.generator),
      rn2.draft.sections.map((_, j) => (j === i ? 'llm:tiny' : 'deterministic')),
    );
    assert.match(result.markdown, /Compared with 1\.2\.1:/);
    assert.doesNotMatch(result.markdown, /\[(pr|commit|ticket|release):/);
    assert.deepEqual(result.citations, rn2.draft.citations);
    assert.equal(result.model?.name, 'tiny');
    assert.equal(result.model?.sections[i]?.outcome, 'accepted');
  });
});
