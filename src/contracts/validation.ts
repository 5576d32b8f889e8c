/**
 * JSON Schema checks (ajv, draft 2020-12) that list every problem by JSON pointer, with hints a person can act
 * on. Used by the API (400 answers), the CLI's loaders and the document screen alike.
 */
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/** A problem with one member of a JSON value, by JSON pointer (the `errors[]` entries of a problem+json body). */
export interface FieldError {
  path: string;
  message: string;
}

/** One ajv instance per process: schemas compile once and are cached by identity. */
// verbose: errors carry the value they are about, so a pattern error can show it.
const ajv = new Ajv2020({ allErrors: true, strict: false, useDefaults: true, verbose: true });
addFormats(ajv);
const compiled = new WeakMap<object, ValidateFunction>();

function compile(schema: object): ValidateFunction {
  let fn = compiled.get(schema);
  if (!fn) {
    fn = ajv.compile(schema);
    compiled.set(schema, fn);
  }
  return fn;
}

/** How many problems one answer lists: enough to fix a request, never a body larger than the request. */
export const MAX_REPORTED_ERRORS = 20;

export function check(schema: object, value: unknown): FieldError[] {
  const fn = compile(schema);
  if (fn(value)) return [];
  const all = fn.errors ?? [];
  const shown = all.slice(0, MAX_REPORTED_ERRORS).map((e) => describe(e, schema));
  if (all.length > MAX_REPORTED_ERRORS) shown.push({ path: '', message: `and ${all.length - MAX_REPORTED_ERRORS} more problems` });
  return shown;
}

function describe(e: ErrorObject, rootSchema: object): FieldError {
  if (e.keyword === 'additionalProperties') {
    const name = String((e.params as { additionalProperty: string }).additionalProperty);
    const known = knownProperties(rootSchema, e.schemaPath);
    const caseTwin = known.find((k) => k.toLowerCase() === name.toLowerCase());
    return {
      path: `${e.instancePath}/${escapePointer(name)}`,
      message: caseTwin
        ? `unknown member "${name}" (member names are case-sensitive: did you mean "${caseTwin}"?)`
        : `unknown member "${name}"${known.length ? ` (allowed: ${known.join(', ')})` : ''}`,
    };
  }
  if (e.keyword === 'required') {
    const name = String((e.params as { missingProperty: string }).missingProperty);
    return { path: `${e.instancePath}/${escapePointer(name)}`, message: 'is required' };
  }
  if (e.keyword === 'enum') {
    const allowed = (e.params as { allowedValues: unknown[] }).allowedValues;
    return { path: e.instancePath, message: `must be one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}` };
  }
  if (e.keyword === 'pattern') {
    // A regular expression is no answer for a person: the schema's description says the form it accepts.
    const form = schemaNode(rootSchema, e.schemaPath)?.description;
    if (typeof form === 'string' && form !== '') {
      const value = typeof e.data === 'string' && e.data.length <= 100 ? `${JSON.stringify(e.data)} ` : '';
      return { path: e.instancePath, message: `${value}is not in the accepted form: ${form}` };
    }
  }
  return { path: e.instancePath, message: e.message ?? 'is invalid' };
}

/** The sub-schema an error's keyword belongs to (its schemaPath without the keyword). */
function schemaNode(rootSchema: object, schemaPath: string): { description?: unknown; properties?: unknown } | undefined {
  const parts = schemaPath.replace(/^#\/?/, '').split('/').filter(Boolean);
  parts.pop();
  let node: unknown = rootSchema;
  for (const p of parts) node = (node as Record<string, unknown> | undefined)?.[p.replace(/~1/g, '/').replace(/~0/g, '~')];
  return typeof node === 'object' && node !== null ? (node as { description?: unknown; properties?: unknown }) : undefined;
}

/** The `properties` names of the sub-schema an additionalProperties error came from. */
function knownProperties(rootSchema: object, schemaPath: string): string[] {
  const props = schemaNode(rootSchema, schemaPath)?.properties;
  return typeof props === 'object' && props !== null ? Object.keys(props) : [];
}

const escapePointer = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');
