/**
 * Which group a change belongs in, or why users would never see it. The change's changesets, where the
 * repository writes them, decide first; then explicit signals (conventional type, labels, ticket type, breaking
 * markers); the wording of the title is only a fallback for repositories that do not use conventions.
 */
import { isMergeCommit, parseHeader, revertOf, type ConventionalHeader } from './conventional';
import { gitmojiHeader } from './gitmoji';
import { breakingNote } from './migration';
import { changeDocuments, type Change } from './changes';
import { changesetCategory, changesetsOf, releasingChangesets, updatedDependencies } from './changesets';

/** `docs`: documentation for users, summarised among the other changes rather than listed. */
export type Category = 'breaking' | 'feature' | 'improvement' | 'fix' | 'revert' | 'docs' | 'other';
/**
 * `internal`: left out as the project's own work, which a project may list (listing.ts): `work` on its code (tests,
 * refactors, tooling, dev dependencies), or its CI and repository `automation` (workflows and their Node.js matrix,
 * Dependabot, pull request templates), which no changelog lists even where it lists its own work. `countOnly`: a
 * documentation change counted in the documentation line even where the project lists documentation one by one
 * (a typo, grammar or punctuation fix).
 */
export type Classification = { category: Category; countOnly?: true } | { excluded: string; internal?: 'work' | 'automation' };

const internalWork = (reason: string): Classification => ({ excluded: reason, internal: 'work' });
const automation = (reason: string): Classification => ({ excluded: reason, internal: 'automation' });

/** Stronger first: when members disagree, a change is listed where users notice it most. */
const USER_CATEGORIES: Category[] = ['feature', 'fix', 'improvement'];

const TYPE_CATEGORY: Record<string, Category> = {
  feat: 'feature',
  feature: 'feature',
  fix: 'fix',
  bugfix: 'fix',
  perf: 'improvement',
};
/** Conventional types and scopes for CI (`ci: …`, `fix(ci): …`, a 💚 gitmoji): repository automation. */
const AUTOMATION_TYPES = new Set(['ci']);
/** Conventional types a maintainer gives a change users see (a bot's `fix(deps): …` is a runtime dependency update). */
const USER_TYPES = new Set(['feat', 'feature', 'fix', 'bugfix', 'perf']);
/** `cleanup` and `lint` are not in the Conventional Commits list, but say what `refactor` and `style` say. */
const INTERNAL_TYPES = new Set(['chore', 'ci', 'build', 'test', 'tests', 'refactor', 'style', 'cleanup', 'lint']);
/**
 * Documentation types: `doc` is how some projects spell `docs` (express's "doc: fix the Contributing.md link"), and
 * `examples:` says what `docs(examples):` says ("examples: improve view count in cookie-sessions").
 */
const DOC_TYPES = new Set(['docs', 'doc', 'examples', 'example']);

const LABEL_CATEGORY: Record<string, Category> = {
  bug: 'fix',
  bugfix: 'fix',
  feature: 'feature',
  'new feature': 'feature',
  enhancement: 'improvement',
  improvement: 'improvement',
  performance: 'improvement',
};
const SKIP_LABELS = new Set(['skip-changelog', 'no-changelog', 'skip-release-notes', 'internal']);
const BREAKING_LABELS = new Set(['breaking', 'breaking-change', 'breaking change', 'semver-major']);

const TICKET_CATEGORY: Record<string, Category> = {
  bug: 'fix',
  defect: 'fix',
  feature: 'feature',
  'new feature': 'feature',
  story: 'feature',
  improvement: 'improvement',
  enhancement: 'improvement',
};

const INTERNAL_DOC_SCOPES = new Set(['internal', 'dev', 'contributing', 'readme', 'adr', 'architecture', 'ci', 'repo']);
/** Scopes that make any change documentation. */
const DOC_SCOPES = new Set(['docs', 'doc', 'readme', 'examples', 'example', 'jsdoc']);
/** Scopes that make a fix or feature internal ("fix(ci): …", "fix(devdeps): …"): users never see them. */
const INTERNAL_SCOPES: Record<string, string> = {
  ci: 'ci',
  build: 'build',
  test: 'test',
  tests: 'test',
  lint: 'development tooling',
  devdeps: 'dev dependencies',
  'dev-deps': 'dev dependencies',
  'deps-dev': 'dev dependencies',
};
/** Where a typed fix's typo is when it is documentation: the README, docs, examples, comments. */
const DOC_PLACE = /\b(readme|docs?|documentation|examples?|comments?|jsdoc|guides?)\b|\.md\b/i;
const INTERNAL_DOC_WORDS = /\b(contributing|readme|adr|internal|developer|architecture decision|runbook|onboarding for engineers)\b/i;

const DEPENDENCY_WORDS = /\b(bump|bumps|update|updates|upgrade|upgrades|pin|lock ?file)\b|\bdeps?\b|dependenc/i;

/** A commit that only names a release ("5.0.0", "v2.1.0", "Release 2.4.0"): the version bump, not a change. */
const RELEASE_COMMIT = /^(release\s+)?v?\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/i;
/**
 * Wording fallback: release housekeeping. changesets' "Version Packages" pull request, "Bump version to 12.0.0",
 * and a title that names a version beside release words ("Prepare for 14.0.2", "Update docs for 14.0.3",
 * "Update details for 15.0.0 release").
 */
const RELEASE_WORK = /^version packages\b|\bbump(ed|s)? (the )?version\b|\bversion (bump|number)\b/i;
const VERSION_NUMBER = /\bv?\d+\.\d+(\.\d+)?\b/;
const RELEASE_WORDS = /\b(prepare|prepares|preparing|prep|release|releases|releasing)\b|\b(docs|details|notes) for\b/i;
/**
 * Wording fallback: the project's own governance and repository pages (its triage team, captains, charters,
 * security policy, code of conduct, release process, badges, funding): no user of the package reads them as a change.
 */
const GOVERNANCE_WORDS =
  /\b(triage|triager|triagers|captain|captains|emeritus|nominate|nominating|nomination|charter|charters|governance|code of conduct|coc|dco|security policy|security\.md|release[- ]process|technical committee|funding|sponsors?|badges?|threat model|codeowners|contributor covenant)\b/i;
/** Wording fallback: the project's people ("Add @UlisesGascon to mime repos", "Remove @x from triagers"). */
const PEOPLE_CHANGE =
  /^(add|adds|added|remove|removes|removed|nominate|nominates|promote|promotes|move|moves)\s+@[\w-]+\s+(to|from|as|in)\b/i;
/** Wording fallback: release housekeeping (the changelog, the release date), which the notes themselves replace. */
const CHANGELOG_WORDS = /\b(changelog|change log|release notes|release date|history\.md|history file)\b/i;
/** Wording fallback: titles about the project's own tests or development tools, which users never see. */
const TEST_WORDS = /\b(tests?|testing|jest|mocha|vitest|test runner|test matrix|code coverage)\b/i;
/**
 * Wording fallback: internals. A refactoring ("Refactor …", "Rework …", "Tidy …"), formatting, and anything
 * naming a private member (`_getCommandAndAncestors()`: a leading underscore is JavaScript's "not public").
 */
const INTERNAL_CHANGE =
  /^(refactor|refactors|refactored|refactoring|rework|reworked|tidy|tidied|clean ?up|cleanup|restructure|restructured)\b|\b(indentation|whitespace|formatting|format (source )?files|unused|dead code)\b|(^|[\s`(])\\?_[a-z]\w*\(/i;
/** Wording fallback: a person's "Update dependencies" names no dependency users could see (a typed `fix(deps): …` does). */
const DEPENDENCY_UPDATE = /^(update|updated|updates|upgrade|upgraded|bump|bumped)( all| the)? (dev |development )?dependencies\b/i;
const DEV_DEPENDENCY_WORDS = /\bdev[- ]?dependenc(?:y|ies)\b|\bdevDependencies\b|\bdev[- ]deps?\b/i;
/**
 * Wording fallback: CI and repository automation ("Pin GitHub actions with hash", "Add 22.x to node-version", "Drop EOL
 * node 20 from test matrix", "Watch for npm package updates with dependabot", "Remove unneeded header from Pull
 * Request template"): tj/commander.js, whose changelog lists its refactors and test-runner changes, lists none of these.
 */
const AUTOMATION_WORDS =
  /\b(ci|continuous integration|github actions?|gha|dependabot|renovate|codeql|appveyor|travis|test matrix|node-version|pull request templates?|issue templates?|pr templates?)\b/i;
/**
 * Wording fallback: a fix of typos, grammar or punctuation ("Fix typos", "Fix grammar in docs", "Added missing period
 * for consistency and readability", "Added a missing semicolon in css styles in examples/auth"): documentation, counted
 * but never listed one by one (tj/commander.js lists README changes, none of these). Not when it names something the
 * program shows or users call ("Fix typo in error message", "Fix typos and broken link").
 */
const TYPO_FIX =
  /^(?:fix|fixes|fixed|correct|corrects|corrected|add|adds|added)\s+(?:(?:a|an|the|some|several|minor|small|few|missing)\s+)*(?:typos?|grammar|spelling|misspellings?|punctuation|periods?|commas?|semicolons?|full stops?)\b/i;
const PROGRAM_WORDS =
  /\b(errors?|messages?|deprecations?|warnings?|output|options?|flags?|arguments?|api|names?|help|links?|types?|typings)\b/i;
const isTypoFix = (text: string) => TYPO_FIX.test(text) && !PROGRAM_WORDS.test(text);
const TOOLING_WORDS =
  /\b(pull request templates?|issue templates?|pr templates?|github actions?|eslint|tslint|prettier|lint|linting|linter|editorconfig|gitignore|husky|ci|dependabot|renovate|package-lock|lock ?file)\b/i;
/**
 * Wording fallback: documentation for users, counted with the other changes rather than as a fix or feature; also a
 * title that says it documents something ("Document beta releases expectations").
 */
const DOCS_WORDS = /\b(readme|docs|documentation|typos?|examples?|jsdoc|notes?|tips|wording|guide)\b|^document\s/i;
/**
 * Wording fallback for a major release: removing or disallowing something, raising a requirement, or throwing
 * where nothing was thrown, is what semver keeps for one, so in a repository without conventions such a title is a breaking change; unless it is
 * about internals.
 */
const REMOVAL_WORDS =
  /^(remove|removed|removes|drop|dropped|drops|require|required|requires|rename|renamed|renames|disallow|disallowed|disallows|throw|throws)\b/i;
const INTERNAL_WORDS = /\b(unused|dead code|tests?|comments?|templates?)\b/i;

/** Wording fallback: a title that starts like a fix, a feature or an improvement. */
const VERB_CATEGORY: [RegExp, Category][] = [
  [/^(fix|fixed|fixes|resolve|resolved|correct|corrected|prevent|prevented|stop|stopped|handle|handled)\b/i, 'fix'],
  [/^(add|added|adds|introduce|introduced|support|allow|allowed|enable|enabled|expose|exposed|new)\b/i, 'feature'],
  [
    /^(improve|improved|speed up|sped up|reduce|reduced|optimi[sz]e|optimi[sz]ed|make|made|increase|increased|enhance|enhanced|polish|polished|update|updated|show|showed|harden|hardened|generali[sz]e|generali[sz]ed)\b/i,
    'improvement',
  ],
];

const labelsOf = (change: Change) =>
  [...change.pullRequests.flatMap((p) => p.labels ?? []), ...change.tickets.flatMap((t) => t.labels ?? [])].map((l) =>
    l.trim().toLowerCase(),
  );

/** The titles that speak for a change, most authoritative first: pull requests, then commits. */
function headerTitles(change: Change): string[] {
  return [...change.pullRequests.map((p) => p.title), ...change.commits.filter((c) => !isMergeCommit(c.title)).map((c) => c.title)];
}

/** `headers`: the change's headerTitles parsed; `labels`: its labelsOf (each computed once per change). */
function isBreaking(change: Change, headers: readonly (ConventionalHeader | undefined)[], labels: readonly string[]): boolean {
  return (
    headers.some((h) => h?.breaking) ||
    [...change.pullRequests, ...change.commits].some((d) => breakingNote(d.body) !== undefined) ||
    labels.some((l) => BREAKING_LABELS.has(l))
  );
}

/**
 * A dependency bump by a bot, unless its conventional type says users see it: `fix(deps): update dependency
 * uuid to v10` is a runtime dependency (release-please lists it under Bug Fixes); `chore(deps): …`,
 * `build(deps-dev): …` and untyped "Bump x from 1 to 2" are not.
 */
function isBotDependencyBump(
  change: Change,
  headers: readonly (ConventionalHeader | undefined)[],
  labels: readonly string[],
  isBot: (author: string) => boolean,
): boolean {
  const authored = [...change.pullRequests, ...change.commits];
  return (
    authored.length > 0 &&
    authored.every((d) => isBot(d.author)) &&
    authored.some((d) => DEPENDENCY_WORDS.test(d.title) || labels.includes('dependencies')) &&
    !headers.some((h) => USER_TYPES.has(h?.type ?? ''))
  );
}

/** Why a revert is not one users see: it undoes a change users never saw (an internal type or scope). */
function internalRevert(revertedTitle: string): string | undefined {
  const header = parseHeader(revertedTitle);
  if (!header) return undefined;
  if (INTERNAL_TYPES.has(header.type)) return `revert of a ${header.type === 'tests' ? 'test' : header.type} change`;
  if (header.scope !== undefined && INTERNAL_SCOPES[header.scope.toLowerCase()])
    return `revert of a ${INTERNAL_SCOPES[header.scope.toLowerCase()]} change`;
  return undefined;
}

/**
 * `shown`: the change's title as shown; `otherTitles`: its other commits' titles, for the wording fallback, asked
 * for only when the change gets that far (tidying every commit's title of a large range is most of the work).
 * `isBot` says which authors are bots (bots.ts, with the project's own list). `inMajorRelease`: the change first
 * shipped in a major release (semver.ts, isMajorRelease).
 */
export function classify(
  change: Change,
  shown: string,
  otherTitles: () => readonly string[],
  isBot: (author: string) => boolean,
  inMajorRelease = false,
): Classification {
  const labels = labelsOf(change);
  const skip = labels.find((l) => SKIP_LABELS.has(l));
  if (skip) return { excluded: `labelled ${skip}` };
  // A repository that writes changesets lists what they say, as the changesets tool does, and nothing else.
  const changesets = changesetsOf(change);
  if (changesets) {
    const releasing = releasingChangesets(changesets);
    if (releasing.length > 0) return { category: changesetCategory(releasing) };
    // Its dependencies' release bumps the package (a patch): "Updated dependencies", as the tool lists it.
    if (updatedDependencies(changesets).length > 0) return { category: 'fix' };
    return { excluded: changesets.length > 0 ? 'its changesets release other packages, not this one' : 'no changeset' };
  }
  // A gitmoji ("💚 …") is read as the type it stands for.
  const parsed = headerTitles(change).map((t) => parseHeader(t) ?? gitmojiHeader(t));
  if (isBotDependencyBump(change, parsed, labels, isBot)) return { excluded: 'dependency bump by a bot' };
  if (isBreaking(change, parsed, labels)) return { category: 'breaking' };
  const reverts = [...change.pullRequests, ...change.commits]
    .filter((d) => !isMergeCommit(d.title))
    .map((d) => revertOf(d.title, d.body))
    .filter((r) => r !== undefined);
  if (reverts.length > 0) {
    const internal = internalRevert(reverts[0]!.title);
    return internal ? internalWork(internal) : { category: 'revert' };
  }

  const headers = parsed.filter((h) => h !== undefined);
  const internalScope = headers[0]?.scope === undefined ? undefined : INTERNAL_SCOPES[headers[0].scope.toLowerCase()];
  if (internalScope && !labels.some((l) => LABEL_CATEGORY[l]) && change.tickets.length === 0)
    return AUTOMATION_TYPES.has(headers[0]!.scope!.toLowerCase()) ? automation(internalScope) : internalWork(internalScope);
  // The project's own pages (triage team, badges, security policy) are no change to the package, whatever the type.
  if (GOVERNANCE_WORDS.test(shown) || PEOPLE_CHANGE.test(shown)) return { excluded: 'project governance' };
  // A fix or feature of the documentation ("fix(docs): …", "feat(readme): …") is documentation.
  if (headers[0]?.scope !== undefined && DOC_SCOPES.has(headers[0].scope.toLowerCase()) && !labels.some((l) => LABEL_CATEGORY[l]))
    return { category: 'docs' };
  // A typed fix of a typo or a missing semicolon in the documentation or examples is documentation.
  if (
    headers[0] !== undefined &&
    USER_TYPES.has(headers[0].type) &&
    isTypoFix(headers[0].description) &&
    DOC_PLACE.test(headers[0].description)
  )
    return { category: 'docs', countOnly: true };
  const explicit = new Set<Category>([
    ...headers.map((h) => TYPE_CATEGORY[h.type]).filter((c) => c !== undefined),
    ...labels.map((l) => LABEL_CATEGORY[l]).filter((c) => c !== undefined),
    ...change.tickets.map((t) => TICKET_CATEGORY[t.type.trim().toLowerCase()]).filter((c) => c !== undefined),
  ]);
  const userCategory = USER_CATEGORIES.find((c) => explicit.has(c));
  if (userCategory) return { category: userCategory };

  const internal = headers.find((h) => INTERNAL_TYPES.has(h.type));
  if (internal) {
    const reason = internal.type === 'tests' ? 'test' : internal.type;
    return AUTOMATION_TYPES.has(internal.type) ? automation(reason) : internalWork(reason);
  }
  const docs = headers.find((h) => DOC_TYPES.has(h.type));
  if (docs) {
    const internalDocs =
      (docs.scope !== undefined && INTERNAL_DOC_SCOPES.has(docs.scope.toLowerCase())) || INTERNAL_DOC_WORDS.test(docs.description);
    if (internalDocs) return internalWork('internal docs');
    return isTypoFix(docs.description) ? { category: 'docs', countOnly: true } : { category: 'docs' };
  }
  if (changeDocuments(change).every((d) => d.kind === 'commit' && isMergeCommit(d.title))) return { excluded: 'merge commit' };
  if (RELEASE_COMMIT.test(shown.trim()) || RELEASE_WORK.test(shown) || (VERSION_NUMBER.test(shown) && RELEASE_WORDS.test(shown)))
    return { excluded: 'release commit' };
  if (CHANGELOG_WORDS.test(shown)) return { excluded: 'changelog' };
  if (GOVERNANCE_WORDS.test(shown)) return { excluded: 'project governance' };
  if (AUTOMATION_WORDS.test(shown)) return automation(TEST_WORDS.test(shown) ? 'test' : 'development tooling');
  if (TEST_WORDS.test(shown)) return internalWork('test');
  if (INTERNAL_CHANGE.test(shown)) return internalWork('internal change');
  if (DEV_DEPENDENCY_WORDS.test(shown)) return internalWork('dev dependencies');
  if (DEPENDENCY_UPDATE.test(shown)) return internalWork('dependency update');
  if (TOOLING_WORDS.test(shown)) return internalWork('development tooling');
  if (isTypoFix(shown)) return { category: 'docs', countOnly: true };
  if (DOCS_WORDS.test(shown)) return { category: 'docs' };
  if (inMajorRelease && REMOVAL_WORDS.test(shown) && !INTERNAL_WORDS.test(shown)) return { category: 'breaking' };
  for (const title of [shown, ...otherTitles()]) {
    const category = VERB_CATEGORY.find(([re]) => re.test(title))?.[1];
    if (category) return { category };
  }
  return { category: 'other' };
}
