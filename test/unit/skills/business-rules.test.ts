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
    const errors = validateBusinessRules('release_notes_composer', { fromVersion: '1.0.0', toVersion: '3.0.0' }, { releaseVersions });
    assert.deepEqual(errors, [
      { path: '/toVersion', message: '3.0.0 is not a release of this project (latest releases: 2.0.0, 1.10.0, v1.9.0, 1.0.0)' },
    ]);
    assert.equal(
      validateBusinessRules('release_notes_composer', { fromVersion: '1.0.0', toVersion: '2.0.0' }, {}).length,
      2,
      'no facts: nothing is known',
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
