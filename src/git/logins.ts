/**
 * Forge logins of a history's authors, learnt over the whole history before any commit is stored, so every
 * commit of one person names them the same way (release notes show "@login", and the store keeps one
 * first contribution per person). A login comes from a GitHub no-reply address (`…+login@users.noreply.github.com`):
 * the commit's own author address, or another commit or `Co-authored-by:` trailer where the same name
 * appears with one. A name seen with two different logins is ambiguous and gets none. Pure.
 */
import { loginOfEmail } from '../skills/forge';

/** `git log` fields read for this: author name, author email, and the Co-authored-by trailers' values. */
export const PEOPLE_FORMAT = ['%aN', '%aE', '%(trailers:key=Co-authored-by,valueonly,separator=%x1d)'].join('%x1f');

const FIELD = '\x1f';
const TRAILER = '\x1d';
const lower = (s: string) => s.trim().toLowerCase();

export class Logins {
  private readonly byEmail = new Map<string, string>();
  private readonly byName = new Map<string, string | null>();

  /** One `git log -z --format=PEOPLE_FORMAT` record. */
  addRecord(record: string): void {
    const [name = '', email = '', trailers = ''] = record.replace(/^\n/, '').split(FIELD);
    this.add(name, email);
    for (const value of trailers.split(TRAILER)) {
      const lt = value.indexOf('<');
      const gt = value.indexOf('>', lt + 1);
      if (lt >= 0 && gt > lt) this.add(value.slice(0, lt), value.slice(lt + 1, gt));
      else if (value.includes('@')) this.add('', value);
    }
  }

  add(name: string, email: string): void {
    const login = loginOfEmail(email);
    if (login) this.byEmail.set(lower(email), login);
    if (name.trim() === '' || !login) return;
    const seen = this.byName.get(lower(name));
    this.byName.set(lower(name), seen === undefined || seen === login ? login : null);
  }

  /** The author's login: from their address, else from their name. */
  loginOf(name: string, email: string): string | undefined {
    return this.byEmail.get(lower(email)) ?? this.byName.get(lower(name)) ?? undefined;
  }
}
