/**
 * Commits as `git log -z --format=LOG_FORMAT` prints them: one NUL-terminated record per commit, fields
 * separated by the ASCII unit separator (which commit messages do not contain in practice). Pure.
 */

export interface GitCommit {
  sha: string;
  parents: string[];
  author: string;
  authorEmail: string;
  /** Committer date in UTC ISO 8601: when the commit landed on its branch (after rebases and squashes). */
  committedAt: string;
  subject: string;
  body: string;
}

const FIELD = '\x1f';

/** Full sha, parents, author name (mailmap applied) and email, committer date, subject, body. */
export const LOG_FORMAT = ['%H', '%P', '%aN', '%aE', '%cI', '%s', '%b'].join('%x1f');

export function parseLogRecord(record: string): GitCommit {
  const fields = record.replace(/^\n/, '').split(FIELD);
  if (fields.length < 7 || !/^[0-9a-f]{40,64}$/.test(fields[0]))
    throw new Error(`unexpected git log record: ${JSON.stringify(record.slice(0, 120))}`);
  const [sha, parents, author, authorEmail, committed, subject, ...body] = fields;
  return {
    sha,
    parents: parents.split(' ').filter(Boolean),
    author,
    authorEmail,
    committedAt: new Date(committed).toISOString(),
    subject,
    body: body.join(FIELD).trim(),
  };
}

/** Cuts a stream of text into records at `terminator`, however the chunks fall. */
export class RecordSplitter {
  private pending = '';

  constructor(private readonly terminator: string) {}

  push(chunk: string): string[] {
    const parts = (this.pending + chunk).split(this.terminator);
    this.pending = parts.pop() ?? '';
    return parts;
  }

  /** What is left after the last terminator (nothing, for well-formed output). */
  end(): string[] {
    const rest = this.pending;
    this.pending = '';
    return rest.trim() === '' ? [] : [rest];
  }
}
