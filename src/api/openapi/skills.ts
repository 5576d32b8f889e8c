import { SKILLS } from '../../skills/catalog';
import { DOCUMENT_KINDS } from '../../skills/types';
import { authErrors, bearer, json, nullableString, pathParam, problemRef, record, ref, type OpenApiPart, type Schema } from './common';

/** A skill's input schema as a component: the JSON Schema the API validates inputs with, without its `$schema` (the document's dialect is 2020-12). */
const inputSchema = (s: (typeof SKILLS)[number]): Schema => {
  const { $schema: _dialect, ...schema } = s.inputSchema;
  return { title: `${s.title} inputs`, ...withoutDefaults(schema as Schema) };
};

/**
 * An input with a default is optional: the service fills it in. The document says so in words rather than with
 * `default`, which openapi-typescript's default output reads as "always present" and so makes required in a
 * request body (a body without `tone` failed `tsc --strict`). Validation keeps the skill's own schema.
 */
function withoutDefaults(schema: Schema): Schema {
  const properties = schema.properties as Record<string, Schema> | undefined;
  if (!properties) return schema;
  return {
    ...schema,
    properties: Object.fromEntries(
      Object.entries(properties).map(([name, { default: dflt, ...property }]) => [
        name,
        dflt === undefined
          ? property
          : { ...property, description: `${property.description ? `${property.description} ` : ''}Default: ${JSON.stringify(dflt)}.` },
      ]),
    ),
  };
}

export const SKILL_INPUT_REFS = SKILLS.map((s) => ref(`SkillInput_${s.name}`));
export const documentKind: Schema = { enum: [...DOCUMENT_KINDS] };

export const skillCatalogPart: OpenApiPart = {
  schemas: {
    ...Object.fromEntries(SKILLS.map((s) => [`SkillInput_${s.name}`, inputSchema(s)])),
    Skill: record({
      name: { enum: SKILLS.map((s) => s.name) },
      version: { type: 'string' },
      title: { type: 'string' },
      description: { type: 'string' },
      inputSchema: {
        type: 'object',
        additionalProperties: true,
        description: 'JSON Schema 2020-12 of the inputs (the SkillInput_* components)',
      },
      output: record({ format: { const: 'markdown' }, sections: { type: 'array', items: { type: 'string' } } }),
      retrievalScope: { type: 'array', items: documentKind },
      available: { type: 'boolean' },
      unavailableReason: {
        ...nullableString,
        description: 'Why the project may not invoke it (a missing entitlement); null when available',
      },
    }),
    SkillCatalog: record({ project: { type: 'string' }, skills: { type: 'array', items: ref('Skill') } }),
  },
  paths: {
    '/v1/agents/{project}/skills': {
      get: {
        summary: "The project's skills",
        description: 'Each skill with its input schema, output sections, retrieval scope and whether the project is entitled to it.',
        tags: ['skills'],
        security: bearer,
        parameters: [pathParam('project', 'Project id')],
        responses: { 200: json('The catalog', ref('SkillCatalog')), ...authErrors, 404: problemRef('Unknown project') },
      },
    },
  },
};
