import { count, nullableString, ref, type Schema } from './common';
import { documentKind } from './skills';

/**
 * The result of a completed invocation (skills/result.ts SkillResult), in one component so a new member is a
 * one-place edit here and in result.ts.
 */
export const resultSchemas: Record<string, Schema> = {
  SkillResult: {
    type: 'object',
    required: ['format', 'title', 'markdown', 'markdownWithCitations', 'sections', 'citations', 'generator', 'retrieval'],
    properties: {
      format: { const: 'markdown' },
      title: { type: 'string' },
      markdown: {
        type: 'string',
        description:
          'The whole document to publish: title and every section, each claim linked to its source, or a footnote (defined at the end) where the source has no web address',
      },
      markdownWithCitations: {
        type: 'string',
        description:
          'The same document with inline citation markers ([pr:12], [ticket:WEB-7]) and link definitions for the sources with an address',
      },
      sections: { type: 'array', items: ref('ResultSection') },
      citations: {
        type: 'array',
        items: ref('ResultCitation'),
        description: 'Every document a section cites, each one that retrieval returned',
      },
      generator: {
        type: 'string',
        description: '"deterministic", or "llm:<model>" when a model\'s rewrite of at least one section passed the fact check',
      },
      model: ref('ModelReport'),
      retrieval: ref('RetrievalReport'),
      notes: {
        type: 'array',
        items: { type: 'string' },
        description:
          "Remarks on how the result was made (e.g. why a model's answer was not used, or where a draft's toVersion disagrees with the version its changes call for)",
      },
      release: ref('ReleaseStatus'),
    },
  },
  ReleaseStatus: {
    type: 'object',
    required: ['version', 'status'],
    description:
      'Release notes only: the version the document is for. `unreleased` when toVersion is not tagged: the notes then cover everything after fromVersion up to the newest imported commit, and propose the version the changes call for',
    properties: {
      version: { type: 'string', description: 'toVersion' },
      status: { enum: ['released', 'unreleased'] },
      releasedAt: { type: 'string', format: 'date-time' },
      base: { type: 'string', description: 'Unreleased: the newest release in the range, which the proposal follows' },
      proposedVersion: {
        type: 'string',
        description:
          "Unreleased: breaking change → major, feature → minor, else patch (release-please's defaults, before 1.0.0 too); after a pre-release, its next number",
      },
      bump: { enum: ['major', 'minor', 'patch', 'pre-release'] },
      upTo: {
        type: 'object',
        required: ['sha', 'committedAt'],
        description: 'Unreleased: the newest commit the range reaches',
        properties: { sha: { type: 'string' }, committedAt: { type: 'string', format: 'date-time' } },
      },
    },
  },
  ResultSection: {
    type: 'object',
    required: ['heading', 'markdown', 'markdownWithCitations', 'citations'],
    properties: {
      heading: { type: 'string' },
      markdown: { type: 'string', description: "Publishable: sources linked, or footnotes defined at the section's end" },
      markdownWithCitations: { type: 'string', description: 'The section with inline citation markers' },
      citations: { type: 'array', items: { type: 'string' }, description: 'Ids of result.citations, in order of first mention' },
      generator: {
        type: 'string',
        description: 'Present when a model was asked: who wrote this section ("deterministic" or "llm:<model>")',
      },
    },
  },
  ModelReport: {
    type: 'object',
    required: ['name', 'sections'],
    description: 'Present when a model was asked to rewrite the draft: what became of each section',
    properties: {
      name: { type: 'string' },
      sections: {
        type: 'array',
        items: {
          type: 'object',
          required: ['heading', 'outcome', 'durationMs'],
          properties: {
            heading: { type: 'string' },
            outcome: {
              enum: ['accepted', 'unchanged', 'refused', 'failed', 'timed_out', 'kept'],
              description:
                "accepted: the model's text is shown; unchanged: its answer was the draft's text (the section is the deterministic draft); refused: it failed the checks; failed / timed_out: the call did; kept: not sent",
            },
            reason: { type: 'string' },
            durationMs: count,
            facts: {
              type: 'object',
              required: ['total', 'kept'],
              description: 'Facts of the draft section (versions, numbers, dates, identifiers, names, links) and how many the rewrite kept',
              properties: { total: count, kept: count },
            },
          },
        },
      },
    },
  },
  ResultCitation: {
    type: 'object',
    required: ['id', 'kind', 'title', 'url'],
    properties: { id: { type: 'string', examples: ['pr:123'] }, kind: documentKind, title: { type: 'string' }, url: nullableString },
  },
  RetrievalReport: {
    type: 'object',
    required: ['searched', 'used', 'excluded'],
    properties: {
      searched: {
        type: 'object',
        propertyNames: documentKind,
        additionalProperties: count,
        description: 'Documents retrieval returned, per kind the plan queried',
      },
      used: { ...count, description: 'Documents the result cites' },
      excluded: {
        type: 'array',
        items: { type: 'object', required: ['id', 'reason'], properties: { id: { type: 'string' }, reason: { type: 'string' } } },
        description: 'Retrieved documents left out, and why',
      },
    },
  },
};
