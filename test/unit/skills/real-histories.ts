/**
 * Two histories shaped like real public repositories, built with `git` (fixed dates and authors: the same
 * shas on every run), for golden release notes:
 *   client-library   a GitHub library released with release-please: conventional squash merges "(#N)",
 *                    Renovate and release bots, `Co-authored-by: Owl Bot`, a CI account, `BREAKING CHANGE:`
 *                    footers, a squashed commit list, words such as AIP-193, UTF-8 and ISO-8601.
 *   storefront       an application with merge commits "Merge pull request #N from org/branch", Jira keys in
 *                    branch names and subjects, free-form and conventional titles, a fix titled by its bug,
 *                    a "## Migration" section, Dependabot, Jenkins and the GitHub Actions bot.
 *   process-runner   a small Node library that follows no convention (squash merges "(#N)" in plain words),
 *                    whose major releases remove APIs and raise the Node.js requirement without saying
 *                    "breaking", and whose history has test-only, tooling, changelog and dev-dependency
 *                    commits, and co-authors named by a GitHub no-reply address alone.
 */
import type { ReleaseNotesInputs } from '../../../src/skills/inputs';
import { GitRepo, type Person } from '../../support/git-repo';

const person = (name: string, email: string): Person => ({ name, email });
const OWL_BOT = 'Co-authored-by: Owl Bot <gcf-owl-bot[bot]@users.noreply.github.com>';

export interface History {
  name: string;
  build(): GitRepo;
  cases: { name: string; inputs: ReleaseNotesInputs }[];
}

export const CLIENT_LIBRARY: History = {
  name: 'client-library',
  cases: [
    { name: 'client-library-5.1.0-6.0.0', inputs: { fromVersion: '5.1.0', toVersion: '6.0.0' } },
    { name: 'client-library-5.1.0-6.0.0-formal', inputs: { fromVersion: '5.1.0', toVersion: '6.0.0', tone: 'formal' } },
  ],
  build() {
    const justin = person('Justin Beckwith', 'justin.beckwith@example.test');
    const daniel = person('Daniel Bankhead', 'danielbankhead@example.test');
    const sofia = person('Sofia Leon', 'sofialeon@example.test');
    const repo = new GitRepo({ start: '2023-03-01T09:00:00Z', author: justin });
    repo.git(['remote', 'add', 'origin', 'https://github.com/googleapis/gaxios.git']);
    repo.commit('feat: add retry config (#540)');
    repo.tag('v5.1.0', 'v5.1.0');
    repo.commit(
      'fix(deps): update dependency https-proxy-agent to v7 (#560)',
      undefined,
      person('renovate[bot]', '29139614+renovate[bot]@users.noreply.github.com'),
    );
    repo.commit(
      'chore(deps): update dependency sinon to v16 (#563)',
      undefined,
      person('renovate[bot]', '29139614+renovate[bot]@users.noreply.github.com'),
    );
    repo.commit('fix: UTF-8 response bodies are decoded as latin1 when no charset is given (#612)', `Fixes #598\n\n${OWL_BOT}`, sofia);
    repo.commit(
      'feat: support ISO-8601 dates in Retry-After headers (#620)',
      'Co-authored-by: Justin Beckwith <justin.beckwith@example.test>',
      daniel,
    );
    repo.commit("fix: don't retry on 501 Not Implemented (#631)", undefined, person('Yoshi Automation', 'yoshi-automation@example.test'));
    repo.commit('build: publish with provenance (#635)', undefined, person('Jenkins', 'jenkins@example.test'));
    repo.commit('fix(ci): pin the release workflow to ubuntu-22.04 (#636)', undefined, sofia);
    repo.commit(
      'docs: document proxy settings (#637)',
      undefined,
      person('GitHub Actions Bot', '41898282+github-actions[bot]@users.noreply.github.com'),
    );
    repo.commit(
      'feat!: Support AIP-193 for GaxiosError (#644)',
      `BREAKING CHANGE: \`GaxiosError.code\` is now the AIP-193 error code; read the HTTP status from \`GaxiosError.status\`.\n\n${OWL_BOT}`,
      daniel,
    );
    repo.commit(
      'feat!: Support Node 18+ (#650)',
      `* feat!: Support Node 18+\n\n* chore: update engines\n\n* docs: require Node 18 in the README\n\n---------\n\n${OWL_BOT}`,
    );
    repo.commit(
      'chore(main): release 6.0.0 (#651)',
      undefined,
      person('release-please[bot]', '55107282+release-please[bot]@users.noreply.github.com'),
    );
    repo.tag('v6.0.0', 'v6.0.0');
    repo.commit('fix: prefer the global fetch when available (#660)', undefined, sofia);
    return repo;
  },
};

export const STOREFRONT: History = {
  name: 'storefront',
  cases: [
    { name: 'storefront-2.3.0-2.4.0', inputs: { fromVersion: '2.3.0', toVersion: '2.4.0' } },
    { name: 'storefront-2.3.0-2.4.0-casual', inputs: { fromVersion: '2.3.0', toVersion: '2.4.0', tone: 'casual' } },
  ],
  build() {
    const marco = person('Marco Bianchi', 'marco@acme.test');
    const lena = person('Lena Fischer', 'lena@acme.test');
    const repo = new GitRepo({ start: '2024-05-01T09:00:00Z', author: marco });
    repo.git(['remote', 'add', 'origin', 'git@github.com:acme/storefront.git']);
    repo.commit('Initial storefront');
    repo.tag('2.3.0');

    repo.git(['checkout', '-q', '-b', 'feature/SHOP-41-csv-export']);
    repo.commit('Add CSV export of orders', 'SHOP-41', lena);
    repo.commit('Handle UTF-8 BOM in CSV exports', 'SHOP-41', lena);
    repo.git(['checkout', '-q', 'main']);
    repo.merge('feature/SHOP-41-csv-export', 'Merge pull request #118 from acme/feature/SHOP-41-csv-export', 'Export orders as CSV');

    repo.commit(
      'fix: prefer-template invalid autofix creates a tagged template call (#121)',
      'Fixes SHOP-52\n\nCo-authored-by: Sara Lindqvist <sara@acme.test>',
    );
    repo.commit('SHOP-44: Show ISO-8601 dates in the order history (#122)', undefined, lena);
    repo.commit("fix: don't crash when the cart is empty (#123)");
    repo.commit('fix: UTF-8 file names are mangled in attachments (#124)', undefined, lena);

    repo.git(['checkout', '-q', '-b', 'SHOP-60-remove-legacy-checkout']);
    repo.commit(
      'feat!: remove the legacy checkout',
      'SHOP-60\n\nCo-authored-by: GitHub Actions Bot <41898282+github-actions[bot]@users.noreply.github.com>',
    );
    repo.git(['checkout', '-q', 'main']);
    repo.merge(
      'SHOP-60-remove-legacy-checkout',
      'Merge pull request #125 from acme/SHOP-60-remove-legacy-checkout',
      'Remove the legacy checkout\n\n## Migration\n\n- Point `checkoutUrl` at `/v2/checkout`.\n- Remove the `legacy` flag from `config.yml`.\n\n## Testing\n\nRan the checkout suite.',
    );
    repo.commit(
      'Bump lodash from 4.17.20 to 4.17.21 (#126)',
      'Bumps lodash from 4.17.20 to 4.17.21.',
      person('dependabot[bot]', '49699333+dependabot[bot]@users.noreply.github.com'),
    );
    repo.commit('Release 2.4.0', undefined, person('Jenkins', 'jenkins@acme.test'));
    repo.tag('v2.4.0', 'Storefront 2.4.0');
    return repo;
  },
};

export const PROCESS_RUNNER: History = {
  name: 'process-runner',
  cases: [
    { name: 'process-runner-4.3.1-5.0.0', inputs: { fromVersion: '4.3.1', toVersion: '5.0.0' } },
    { name: 'process-runner-5.0.1-6.0.0', inputs: { fromVersion: '5.0.1', toVersion: '6.0.0' } },
  ],
  build() {
    const maintainer = person('Mira Okafor', 'mira@example.test');
    const helper = person('Tomas Varga', 'tomas@example.test');
    const newcomer = person('Priya Nair', 'priya@example.test');
    const repo = new GitRepo({ start: '2025-01-06T09:00:00Z', author: maintainer });
    repo.git(['remote', 'add', 'origin', 'https://github.com/example/process-runner.git']);
    repo.commit('Run commands with a promise API');
    repo.tag('v4.3.1');
    repo.commit(
      'Fix input with an inherited stdin (#232)',
      'Co-authored-by: sam-lee@users.noreply.github.com\nCo-authored-by: private@example.test',
      newcomer,
    );
    repo.commit('Update test coverage for Node.js 26 (#242)');
    repo.commit('Require Node.js 22 (#243)');
    repo.commit('Remove `runCommand()` and `runCommandSync()` (#244)', 'Use `run()` with a parsed argument list instead.');
    repo.commit("Remove the old `stdio: [..., 'ipc']` syntax (#245)", undefined, helper);
    repo.commit("Add `{value: 'pipe', input: true}` to pass an extra file descriptor as input (#246)");
    repo.commit('Document cleaning up a process tree on Windows (#250)', undefined, helper);
    repo.commit('Move away from `cross-spawn` (#251)');
    repo.commit("Expose the destination's methods on `.pipe()` (#252)");
    repo.commit('Harden against prototype pollution (#253)', undefined, helper);
    repo.commit('Disallow excess arguments (#254)');
    repo.commit('Remove an unneeded header from the pull request template (#255)');
    repo.commit('Fix typos in the README (#256)', undefined, helper);
    repo.commit('Update CHANGELOG for 5.0.0');
    repo.commit('Fix flaky test');
    repo.commit('Update dev dependencies (#257)');
    repo.commit('Remove unused helper (#258)', undefined, helper);
    repo.commit('Improve `taskkill` usage (#259)');
    repo.commit('5.0.0');
    repo.tag('v5.0.0');
    repo.commit('Fix `preferLocal` argument escaping on Windows (#260)', undefined, helper);
    repo.commit('5.0.1');
    repo.tag('v5.0.1');
    repo.commit('Add a `killSignal` option to `run()` (#270)');
    repo.commit('Switch the package to ES modules only (#271)');
    repo.commit('6.0.0');
    repo.tag('v6.0.0');
    return repo;
  },
};

/**
 * http-client: shaped like googleapis/gaxios from 6.6.0 to its move to release-please component tags (its issue
 * #33 walk-through): conventional squash merges "(#N)", authors with GitHub no-reply addresses (and one whose
 * name appears once with one), a newcomer whose first pull request is a test fix, a pre-release before the major,
 * a user-visible revert and a feature reverted before it shipped, a one-fix patch, the last release tagged
 * `http-client-v7.1.2` by release-please's component scheme, and work after it not tagged yet.
 */
export const HTTP_CLIENT = {
  name: 'http-client',
  web: 'https://github.com/acme/http-client',
  /** import-git --tag-prefix for this history: the old scheme and the component's. */
  tagPrefixes: ['v', 'http-client-v'],
  build(): GitRepo {
    const dan = person('Dan Banks', 'dan@banks.test');
    const danNoreply = person('Dan Banks', '1201+dbanks@users.noreply.github.com');
    const sofi = person('sofi', '55454395+sofi@users.noreply.github.com');
    const dev = person('d-dev', '188102366+d-dev@users.noreply.github.com');
    const tomas = person('Tomas Rimko', 'tomas@rimko.test');
    const renovate = person('Mend Renovate', 'renovate@whitesourcesoftware.com');
    const releaser = person('release-please[bot]', '55107282+release-please[bot]@users.noreply.github.com');
    const repo = new GitRepo({ start: '2024-04-01T09:00:00Z', author: dan });
    repo.git(['remote', 'add', 'origin', 'https://github.com/acme/http-client.git']);
    repo.commit('feat: add request interceptors (#619)', undefined, danNoreply);
    repo.tag('v6.6.0');
    repo.commit('feat: add additional retry configuration options (#634)');
    repo.commit('fix(deps): update dependency uuid to v10 (#629)', undefined, renovate);
    repo.tag('v6.7.0');
    repo.commit('fix: release uuid rollback (#641)', undefined, sofi);
    repo.commit('chore(main): release 6.7.1 (#642)', undefined, releaser);
    repo.tag('v6.7.1');
    repo.commit('feat!: support Node 18+ (#650)', `BREAKING CHANGE: Node 14 and 16 are no longer supported.`);
    repo.commit('test: timeout flaky fix (#668)', undefined, dev);
    repo.commit('chore(main): release 7.0.0-rc.1 (#670)', undefined, releaser);
    repo.tag('v7.0.0-rc.1');
    repo.commit('feat: `fetch`-compatible API (#680)', 'Co-authored-by: sofi <55454395+sofi@users.noreply.github.com>', dev);
    repo.commit('revert: Undeprecate `adapter` (#682)', undefined, dev);
    repo.commit('docs: improve README for the next major (#683)', undefined, dev);
    const cache = repo.commit('feat: experimental response cache (#690)', undefined, dev);
    repo.commit('Revert "feat: experimental response cache (#690)" (#695)', `This reverts commit ${cache}.`, dev);
    repo.commit('chore(deps): update dependency sinon to v20 (#692)', undefined, renovate);
    repo.commit('feat!: support AIP-193 for `GaxiosError` (#699)', undefined, dev);
    repo.commit('chore(main): release 7.0.0 (#657)', undefined, releaser);
    repo.tag('v7.0.0', 'v7.0.0');
    repo.commit('feat: use global `URL` (#703)', undefined, dev);
    repo.tag('v7.1.0');
    repo.commit("fix: don't iterate over undefined opts.data (#711)");
    repo.commit('chore(main): release 7.1.1 (#712)', undefined, releaser);
    repo.tag('v7.1.1');
    repo.commit('fix: extract error information from the response body (#738)', undefined, tomas);
    repo.commit('chore(main): release http-client 7.1.2 (#739)', undefined, releaser);
    repo.tag('http-client-v7.1.2');
    repo.commit('fix: `no content` response handling when the response type is `json` (#740)', undefined, tomas);
    repo.commit('chore: add repository deprecation message (#749)', undefined, person('miguel', 'miguel@example.test'));
    return repo;
  },
};
