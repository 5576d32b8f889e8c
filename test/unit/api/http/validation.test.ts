import assert from 'node:assert/strict';
import { HttpProblem } from '../../../../src/api/http/problem';
import { validate } from '../../../../src/api/http/validation';
import { getSkill } from '../../../../src/skills/catalog';

const schema = getSkill('release_notes_composer').inputSchema;

function problemOf(fn: () => unknown): HttpProblem {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof HttpProblem);
    return err;
  }
  assert.fail('expected a problem');
}

describe('validate', () => {
  it('fills in schema defaults', () => {
    const value = validate<{ tone: string }>(schema, { fromVersion: '1.0.0', toVersion: '1.1.0' });
    assert.equal(value.tone, 'neutral');
  });

  it('names unknown members, with a hint when only the case differs', () => {
    const p = problemOf(() => validate(schema, { fromVersion: '1.0.0', toVersion: '1.1.0', Tone: 'casual', colour: 'red' }));
    assert.equal(p.status, 400);
    assert.equal(p.code, 'invalid_input');
    const byPath = new Map(p.errors!.map((e) => [e.path, e.message]));
    assert.match(byPath.get('/Tone')!, /did you mean "tone"/);
    assert.match(byPath.get('/colour')!, /unknown member "colour"/);
  });

  it('reports missing members and bad values with JSON pointers', () => {
    const p = problemOf(() => validate(schema, { fromVersion: 'v1', tone: 'loud' }));
    const paths = p.errors!.map((e) => e.path).sort();
    assert.deepEqual(paths, ['/fromVersion', '/toVersion', '/tone']);
  });
});
