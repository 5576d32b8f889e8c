/**
 * How release notes name people: by their forge login ("@d-goog", as GitHub's generated notes do) where one is
 * known, by their name otherwise, and the same way everywhere in one document. A login is known from a
 * document's `authorLogin` (import-git reads it from GitHub no-reply addresses anywhere in the history) or from
 * a `Co-authored-by:` trailer's no-reply address; the name it came with then stands for that login in every
 * other document too. Pure.
 */
import { loginOfEmail } from '../forge';
import type { ProjectDocument } from '../documents';
import { coAuthors } from './conventional';

const lower = (s: string) => s.trim().toLowerCase();

export class People {
  /** Lower-cased name → login. */
  private readonly logins = new Map<string, string>();

  constructor(docs: readonly ProjectDocument[]) {
    for (const d of docs) {
      if ((d.kind === 'commit' || d.kind === 'pull_request') && d.authorLogin) this.learn(d.author, d.authorLogin);
      if (d.kind === 'commit') for (const c of coAuthors(d.body)) if (c.email) this.learn(c.name, loginOfEmail(c.email));
    }
  }

  private learn(name: string, login: string | undefined): void {
    if (login && !this.logins.has(lower(name))) this.logins.set(lower(name), login.trim());
  }

  /** The login known for this person, if any. */
  loginOf(name: string, login?: string): string | undefined {
    return login?.trim() || this.logins.get(lower(name));
  }

  /** "@login" when a login is known, else the name. */
  display(name: string, login?: string): string {
    const known = this.loginOf(name, login);
    return known ? `@${known}` : name.trim();
  }

  /** The names a person may be listed under in `excludeContributors` (name, login, @login), lower-cased. */
  aliases(name: string, login?: string): string[] {
    const known = this.loginOf(name, login);
    return [lower(name), ...(known ? [lower(known), `@${lower(known)}`] : [])];
  }
}
