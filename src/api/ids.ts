import { badRequest } from './problem';

/** Project, org and app identifiers: short, URL-safe, lower case, so they read well in workflow ids. */
export const ID_PATTERN = '^[a-z0-9][a-z0-9._-]{0,62}$';
const ID_RE = new RegExp(ID_PATTERN);

export function checkId(value: string, what: string): string {
  if (!ID_RE.test(value)) {
    throw badRequest('invalid_id', `${what} "${value.slice(0, 80)}" must match ${ID_PATTERN}`, [
      { path: `/${what}`, message: `must match ${ID_PATTERN}` },
    ]);
  }
  return value;
}
