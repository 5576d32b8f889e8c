/**
 * Web pages of a repository on GitHub, GitLab or Bitbucket: where a commit, a pull request, an issue, a
 * release tag and a comparison live. import-git derives the repository's web address from its `origin`
 * remote (or takes it as an option) and stamps commit and release URLs; the release notes find the address
 * again in those URLs, so links to pull requests work without a pull-request document. Pure.
 */

export type ForgeKind = 'github' | 'gitlab' | 'bitbucket';

export interface Forge {
  kind: ForgeKind;
  /** "https://github.com/owner/repo", no trailing slash. */
  base: string;
}

const HOSTS: Record<string, ForgeKind> = { 'github.com': 'github', 'gitlab.com': 'gitlab', 'bitbucket.org': 'bitbucket' };

/** Path segments of a repository: letters, digits and . _ - (GitLab allows subgroups: several segments). */
const SEGMENT = /^[A-Za-z0-9_.-]{1,100}$/;

function forgeOf(host: string, path: string, kind?: ForgeKind): Forge | undefined {
  const k = kind ?? HOSTS[host.toLowerCase()];
  if (!k) return undefined;
  const segments = path
    .replace(/\.git$/, '')
    .split('/')
    .filter(Boolean);
  if (
    segments.length < 2 ||
    segments.length > (k === 'gitlab' ? 10 : 2) ||
    !segments.every((s) => SEGMENT.test(s) && s !== '.' && s !== '..')
  )
    return undefined;
  return { kind: k, base: `https://${host.toLowerCase()}/${segments.join('/')}` };
}

/**
 * The web address of a git remote: `git@github.com:o/r.git`, `ssh://git@gitlab.com/g/sub/r.git`,
 * `https://user:token@github.com/o/r` (credentials are dropped). Undefined for other hosts.
 */
export function forgeFromRemote(remote: string): Forge | undefined {
  const r = remote.trim();
  if (r.length > 1000) return undefined;
  const scp = /^[A-Za-z0-9_.-]+@([A-Za-z0-9.-]+):([^\s:]+)$/.exec(r);
  if (scp && !r.includes('://')) return forgeOf(scp[1]!, scp[2]!);
  try {
    const u = new URL(r);
    if (!['https:', 'http:', 'ssh:', 'git:'].includes(u.protocol)) return undefined;
    return forgeOf(u.hostname, u.pathname);
  } catch {
    return undefined;
  }
}

/** A web address given by hand ("https://git.example.com/group/repo" on a self-hosted GitLab): `kind` says which. */
export function forgeFromWebUrl(url: string, kind: ForgeKind): Forge | undefined {
  try {
    const u = new URL(url.trim());
    if (u.protocol !== 'https:' && u.protocol !== 'http:') return undefined;
    const f = forgeOf(u.host, u.pathname, kind);
    return f && { ...f, base: `${u.protocol}//${f.base.slice('https://'.length)}` };
  } catch {
    return undefined;
  }
}

const PAGES: Record<ForgeKind, { commit: string; pull: string; issue: string; tag: string; compare?: string }> = {
  github: { commit: '/commit/', pull: '/pull/', issue: '/issues/', tag: '/releases/tag/', compare: '/compare/' },
  gitlab: { commit: '/-/commit/', pull: '/-/merge_requests/', issue: '/-/issues/', tag: '/-/releases/', compare: '/-/compare/' },
  bitbucket: { commit: '/commits/', pull: '/pull-requests/', issue: '/issues/', tag: '/src/' },
};

export const commitUrl = (f: Forge, sha: string) => `${f.base}${PAGES[f.kind].commit}${sha}`;
export const pullRequestUrl = (f: Forge, n: number) => `${f.base}${PAGES[f.kind].pull}${n}`;
export const issueUrl = (f: Forge, n: number) => `${f.base}${PAGES[f.kind].issue}${n}`;
export const releaseUrl = (f: Forge, tag: string) => `${f.base}${PAGES[f.kind].tag}${encodeURIComponent(tag)}`;

export function compareUrl(f: Forge, fromTag: string, toTag: string): string | undefined {
  const page = PAGES[f.kind].compare;
  return page && `${f.base}${page}${encodeURIComponent(fromTag)}...${encodeURIComponent(toTag)}`;
}

/** The longest page URL forgeFromPageUrl reads. */
export const MAX_PAGE_URL = 2000;

/** The repository of a commit, pull request or release page URL made by the functions above. */
export function forgeFromPageUrl(url: string): Forge | undefined {
  if (url.length > MAX_PAGE_URL) return undefined;
  let host: string;
  try {
    host = new URL(url).host.toLowerCase();
  } catch {
    return undefined;
  }
  // On github.com, gitlab.com and bitbucket.org the host says which; a self-hosted forge is told by its page paths.
  const known = HOSTS[host];
  for (const kind of known ? [known] : (Object.keys(PAGES) as ForgeKind[])) {
    for (const page of [PAGES[kind].commit, PAGES[kind].pull, PAGES[kind].tag]) {
      const at = url.indexOf(page);
      const f = at > 0 ? forgeFromWebUrl(url.slice(0, at), kind) : undefined;
      if (f) return f;
    }
  }
  return undefined;
}

/** The tag in a release page URL of this forge ("…/releases/tag/v1.2.0" → "v1.2.0"). */
export function tagOfReleaseUrl(f: Forge, url: string): string | undefined {
  const prefix = `${f.base}${PAGES[f.kind].tag}`;
  if (!url.startsWith(prefix)) return undefined;
  const rest = url.slice(prefix.length);
  if (rest === '' || /[/?#]/.test(rest)) return undefined;
  try {
    return decodeURIComponent(rest);
  } catch {
    return undefined;
  }
}

/** `login@users.noreply.github.com` or `12345+login@users.noreply.github.com`, GitHub's private commit addresses. */
const GITHUB_NOREPLY = /^(?:\d{1,12}\+)?([A-Za-z0-9][A-Za-z0-9-[\]]{0,63})@users\.noreply\.github\.com$/i;

/** The GitHub login a no-reply commit address names ("188102366+d-goog@users.noreply.github.com" → "d-goog"). */
export function loginOfEmail(email: string): string | undefined {
  const e = email.trim();
  return e.length > 200 ? undefined : GITHUB_NOREPLY.exec(e)?.[1];
}
