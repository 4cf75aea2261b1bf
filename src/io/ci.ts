/**
 * Whether this process runs in CI: the `CI` variable is set, as GitHub Actions, GitLab, CircleCI, Jenkins (with its
 * plugin), Buildkite and most others set it, and not to `false` or `0`.
 */
export function inCI(env: NodeJS.ProcessEnv = process.env): boolean {
  const ci = env['CI'];
  return ci !== undefined && ci !== '' && ci !== 'false' && ci !== '0';
}
