import { execFileSync } from 'node:child_process';

export interface Mounted {
  dir: string;
  unmount(): void;
}

/**
 * Mounts a tmpfs of `bytes` at `dir` (read-only with `readOnly`), for real full-disk and read-only tests; undefined
 * where mounting is not permitted (not root, or a container without CAP_SYS_ADMIN). Root ignores file permissions,
 * so a read-only mount is the one honest read-only folder.
 */
export function mountTmpfs(dir: string, bytes: number, readOnly = false): Mounted | undefined {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `${readOnly ? 'ro,' : ''}size=${bytes}`, 'tmpfs', dir], {
      stdio: 'ignore',
    });
  } catch {
    return undefined;
  }
  let mounted = true;
  return {
    dir,
    unmount: () => {
      if (!mounted) return;
      mounted = false;
      execFileSync('umount', ['-l', dir], { stdio: 'ignore' });
    },
  };
}
