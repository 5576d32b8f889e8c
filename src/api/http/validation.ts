import { check } from '../../contracts/validation';
import { badRequest } from './problem';

/**
 * Validates `value` against a JSON Schema and returns it typed, or throws a 400 listing every problem with
 * its JSON-pointer path. Defaults from the schema are filled in (that is how `tone` becomes `neutral`).
 */
export function validate<T>(schema: object, value: unknown, what = 'Request body'): T {
  const errors = check(schema, value);
  if (errors.length > 0) {
    throw badRequest(
      'invalid_input',
      `${what} does not match the schema: ${errors.map((e) => `${e.path || '/'} ${e.message}`).join('; ')}`,
      errors,
    );
  }
  return value as T;
}
