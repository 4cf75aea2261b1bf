import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

/** The commit and branch a run tested, and where they were read. */
export interface Revision {
  commit?: string;
  branch?: string;
  /** `github`, `gitlab`, ... or `git`. */
  source?: string;
  /** The branch a pull or merge request targets, where CI names one. */
  baseBranch?: string;
}

/** CI variables naming the branch a pull or merge request targets. */
const BASE_BRANCH_VARIABLES = [
  'GITHUB_BASE_REF',
  'CI_MERGE_REQUEST_TARGET_BRANCH_NAME',
  'BITBUCKET_PR_DESTINATION_BRANCH',
  'SYSTEM_PULLREQUEST_TARGETBRANCH',
  'CHANGE_TARGET',
] as const;

/**
 * CI variables for the commit and branch, most specific first. On a GitHub pull request `GITHUB_REF_NAME` is
 * `<n>/merge`, so the head branch (`GITHUB_HEAD_REF`) is preferred when set.
 */
const CI_VARIABLES: ReadonlyArray<{ source: string; commit: string; branch: readonly string[] }> = [
  { source: 'github', commit: 'GITHUB_SHA', branch: ['GITHUB_HEAD_REF', 'GITHUB_REF_NAME'] },
  { source: 'gitlab', commit: 'CI_COMMIT_SHA', branch: ['CI_COMMIT_REF_NAME'] },
  { source: 'buildkite', commit: 'BUILDKITE_COMMIT', branch: ['BUILDKITE_BRANCH'] },
  { source: 'circleci', commit: 'CIRCLE_SHA1', branch: ['CIRCLE_BRANCH', 'CIRCLE_TAG'] },
  { source: 'bitbucket', commit: 'BITBUCKET_COMMIT', branch: ['BITBUCKET_BRANCH', 'BITBUCKET_TAG'] },
  { source: 'azure', commit: 'BUILD_SOURCEVERSION', branch: ['BUILD_SOURCEBRANCHNAME'] },
  { source: 'travis', commit: 'TRAVIS_COMMIT', branch: ['TRAVIS_BRANCH'] },
  { source: 'jenkins', commit: 'GIT_COMMIT', branch: ['BRANCH_NAME', 'GIT_BRANCH'] },
];

/** Runs `git <args>` in a folder and resolves its trimmed output, or undefined when git fails or is absent. */
export type GitRunner = (args: string[], cwd: string) => Promise<string | undefined>;

const execFileAsync = promisify(execFile);

export const runGit: GitRunner = async (args, cwd) => {
  try {
    const { stdout } = await execFileAsync('git', args, { cwd, timeout: 5000 });
    return stdout.trim() || undefined;
  } catch {
    return undefined;
  }
};

/** Reads the commit and branch from the CI environment, falling back to `git` in `cwd`. */
export async function detectRevision(
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
  git: GitRunner = runGit,
): Promise<Revision> {
  const baseBranch = BASE_BRANCH_VARIABLES.map((name) => env[name]).find((value) => value);
  const base = baseBranch ? { baseBranch } : {};
  for (const ci of CI_VARIABLES) {
    const commit = env[ci.commit];
    if (!commit) continue;
    const branch = ci.branch.map((name) => env[name]).find((value) => value);
    return branch ? { commit, branch, source: ci.source, ...base } : { commit, source: ci.source, ...base };
  }
  const commit = await git(['rev-parse', 'HEAD'], cwd);
  if (!commit) return {};
  const branch = await git(['rev-parse', '--abbrev-ref', 'HEAD'], cwd);
  // A detached HEAD names no branch.
  return branch && branch !== 'HEAD' ? { commit, branch, source: 'git' } : { commit, source: 'git' };
}
