import { SLUG_PATTERN as ID_PATTERN, SLUG_RE as ID_RE } from '../../contracts/ids';
import { badRequest } from './problem';

export function checkId(value: string, what: string): string {
  if (!ID_RE.test(value)) {
    throw badRequest('invalid_id', `${what} "${value.slice(0, 80)}" must match ${ID_PATTERN}`, [
      { path: `/${what}`, message: `must match ${ID_PATTERN}` },
    ]);
  }
  return value;
}
