import { count, nullableString, ref, type Schema } from './common';
import { documentKind } from './skills';

/**
 * The result of a completed invocation (skills/result.ts SkillResult), in one component so a new member is a
 * one-place edit here and in result.ts.
 */
export const resultSchemas: Record<string, Schema> = {
  SkillResult: {
    type: 'object',
    required: ['format', 'title', 'markdown', 'sections', 'citations', 'generator', 'retrieval'],
    properties: {
      format: { const: 'markdown' },
      title: { type: 'string' },
      markdown: { type: 'string', description: 'The whole document: title and every section' },
      sections: { type: 'array', items: ref('ResultSection') },
      citations: { type: 'array', items: ref('ResultCitation'), description: 'Every document a section cites, each one that retrieval returned' },
      generator: { type: 'string', description: '"deterministic", or "llm:<model>" when a model rewrote the prose and its answer passed the checks' },
      retrieval: ref('RetrievalReport'),
      notes: { type: 'array', items: { type: 'string' }, description: 'Remarks on how the result was made (e.g. why a model\'s answer was not used)' },
    },
  },
  ResultSection: {
    type: 'object',
    required: ['heading', 'markdown', 'citations'],
    properties: {
      heading: { type: 'string' },
      markdown: { type: 'string' },
      citations: { type: 'array', items: { type: 'string' }, description: 'Ids of result.citations, in order of first mention' },
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
      searched: { type: 'object', propertyNames: documentKind, additionalProperties: count, description: 'Documents retrieval returned, per kind the plan queried' },
      used: { ...count, description: 'Documents the result cites' },
      excluded: {
        type: 'array',
        items: { type: 'object', required: ['id', 'reason'], properties: { id: { type: 'string' }, reason: { type: 'string' } } },
        description: 'Retrieved documents left out, and why',
      },
    },
  },
};
