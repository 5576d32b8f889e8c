import assert from 'node:assert/strict';
import { validateBusinessRules } from '../../../src/skills/run';

const releaseVersions = ['1.0.0', 'v1.9.0', '1.10.0', '2.0.0'];

describe('skills: business rules (422)', () => {
  it('accepts a valid range of known releases', () => {
    assert.deepEqual(
      validateBusinessRules('release_notes_composer', { fromVersion: '1.9.0', toVersion: '1.10.0' }, { releaseVersions }),
      [],
    );
  });

  it('refuses fromVersion not below toVersion, in semver order', () => {
    const errors = validateBusinessRules('release_notes_composer', { fromVersion: '1.10.0', toVersion: '1.9.0' }, { releaseVersions });
    assert.deepEqual(errors, [{ path: '/fromVersion', message: 'must be below toVersion (1.10.0 is not below 1.9.0)' }]);
    assert.equal(
      validateBusinessRules('release_notes_composer', { fromVersion: '2.0.0', toVersion: '2.0.0' }, { releaseVersions }).length,
      1,
    );
  });

  it('refuses versions unknown to the project, naming the latest ones', () => {
    const errors = validateBusinessRules('release_notes_composer', { fromVersion: '0.9.0', toVersion: '2.0.0' }, { releaseVersions });
    assert.deepEqual(errors, [
      { path: '/fromVersion', message: '0.9.0 is not a release of this project (latest releases: 2.0.0, 1.10.0, v1.9.0, 1.0.0)' },
    ]);
    assert.deepEqual(
      validateBusinessRules('release_notes_composer', { fromVersion: '1.0.0', toVersion: '2.0.0' }, {}).map((e) => e.path),
      ['/fromVersion'],
      'no facts: nothing is known',
    );
  });

  it('accepts a toVersion not tagged yet above every release (a draft before the tag), and refuses one below the newest', () => {
    for (const toVersion of ['2.0.1', '2.1.0', '3.0.0', '2.1.0-rc.1'])
      assert.deepEqual(
        validateBusinessRules('release_notes_composer', { fromVersion: '1.10.0', toVersion }, { releaseVersions }),
        [],
        toVersion,
      );
    assert.deepEqual(validateBusinessRules('release_notes_composer', { fromVersion: '1.0.0', toVersion: '1.11.0' }, { releaseVersions }), [
      {
        path: '/toVersion',
        message:
          '1.11.0 is not a release of this project, and a draft before the tag needs a version above its newest release, 2.0.0 (latest releases: 2.0.0, 1.10.0, v1.9.0, 1.0.0)',
      },
    ]);
    assert.equal(
      validateBusinessRules('release_notes_composer', { fromVersion: '1.0.0', toVersion: '2.0.0-rc.1' }, { releaseVersions }).length,
      1,
      'a pre-release of the newest release is below it',
    );
  });

  it('refuses an incident that is not in the project', () => {
    assert.deepEqual(validateBusinessRules('incident_rca', { incidentId: 'INC-1', severity: 'SEV-1' }, { incidentIds: ['INC-1'] }), []);
    assert.deepEqual(validateBusinessRules('incident_rca', { incidentId: 'INC-9', severity: 'SEV-1' }, { incidentIds: [] }), [
      { path: '/incidentId', message: 'no incident INC-9 in this project' },
    ]);
  });

  it('has nothing to refuse for a proposal', () => {
    assert.deepEqual(validateBusinessRules('proposal_writer', { customerName: 'X', format: 'email' }, {}), []);
  });
});
