/**
 * Bots and automation accounts, which author commits and appear in `Co-authored-by:` trailers but are not
 * contributors to thank: `dependabot[bot]`, "Owl Bot", "GitHub Actions Bot", "Jenkins", `renovate-bot`…
 * A name alone can be ambiguous ("Talbot" is a surname), so only whole words and known accounts count.
 */

/** Accounts whose whole (lower-cased) name is a bot's. */
const BOT_NAMES = new Set([
  'jenkins',
  'github',
  'github actions',
  'github-actions',
  'gitlab',
  'gitlab ci',
  'travis ci',
  'travis-ci',
  'circleci',
  'buildkite',
  'teamcity',
  'azure pipelines',
  'copybara',
  'web-flow',
  'google apis',
  'semantic-release',
  'release-please',
]);

/** Names that start with these are bots ("dependabot-preview", "renovate-bot", "github-actions[bot]"). */
const BOT_PREFIXES = [
  'dependabot',
  'renovate',
  'greenkeeper',
  'snyk-bot',
  'github-actions',
  'pre-commit-ci',
  'imgbot',
  'codecov',
  'mergify',
  'allcontributors',
  'semantic-release-bot',
  'release-please',
];

/** A whole word of the name that marks automation ("Owl Bot", "Yoshi Automation", "docs-bot", "Mend Renovate"). */
const BOT_WORDS = new Set(['bot', 'automation', 'autobot', 'renovate', 'dependabot']);

/** Email addresses of bot accounts: GitHub's `…[bot]@users.noreply.github.com`, its web-flow address, `bot@…`. */
function isBotEmail(email: string): boolean {
  const e = email.trim().toLowerCase();
  const local = e.slice(0, e.indexOf('@') < 0 ? e.length : e.indexOf('@'));
  return (
    e.includes('[bot]') ||
    e === 'noreply@github.com' ||
    local === 'bot' ||
    local.endsWith('-bot') ||
    local.endsWith('.bot') ||
    local.endsWith('_bot')
  );
}

export function isBotName(name: string): boolean {
  const n = name.trim().toLowerCase();
  if (n === '') return false;
  if (n.includes('[bot]') || BOT_NAMES.has(n)) return true;
  if (BOT_PREFIXES.some((p) => n.startsWith(p))) return true;
  return n.split(/[\s\-_.]+/).some((word) => BOT_WORDS.has(word));
}

/**
 * True for a bot: by name, by email, or because the project lists the name among the contributors to leave
 * out (`excludeContributors`, compared case-insensitively).
 */
export function isBot(name: string | undefined, email?: string, excluded: ReadonlySet<string> = new Set()): boolean {
  if (name === undefined) return false;
  return isBotName(name) || (email !== undefined && isBotEmail(email)) || excluded.has(name.trim().toLowerCase());
}
