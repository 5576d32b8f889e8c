/**
 * The pull request a branch commit came in with. GitHub's merge commits ("Merge pull request #N from
 * org/branch") have the branch as their second parent; the branch's own commits name no PR, but belong to #N,
 * as GitHub lists them. Fed the commits newest first (as `git log` streams them), this follows each merged
 * branch along its first parents until it reaches the mainline (the first-parent chains of the imported
 * heads and tags). It keeps only the frontier of the walk, so memory stays small on any history. Pure.
 */
import type { GitCommit } from './log';

export class BranchPullRequests {
  /** Mainline commits not yet reached by the walk. */
  private readonly mainline = new Set<string>();
  /** Branch commits not yet reached, with the PR that merged them. */
  private readonly merged = new Map<string, number>();

  constructor(heads: readonly string[]) {
    for (const sha of heads) this.mainline.add(sha);
  }

  /**
   * The PR number for `commit`: its own (from its subject) when it names one, else the PR that merged its
   * branch. Call once per commit, children before parents.
   */
  next(commit: GitCommit, own: number | undefined, isPrMerge: boolean): number | undefined {
    const onMainline = this.mainline.delete(commit.sha);
    const inherited = this.merged.get(commit.sha);
    this.merged.delete(commit.sha);
    const [first, second] = commit.parents;
    if (onMainline && first) this.mainline.add(first);
    const branchPr = onMainline ? undefined : inherited;
    if (branchPr !== undefined && first && !this.mainline.has(first) && !this.merged.has(first)) this.merged.set(first, branchPr);
    if (isPrMerge && own !== undefined && second && !this.mainline.has(second)) this.merged.set(second, own);
    return own ?? branchPr;
  }
}
