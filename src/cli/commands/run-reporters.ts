import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import type { Reporter } from 'vitest/node';
import { defaultRows, REPORTERS } from '../../../reporters/table.js';
import type { NeedleworkTrendOptions } from '../../../reporters/trend.js';
import { UsageError } from '../../errors/index.js';
import { inCI } from '../../io/ci.js';

/** The reporters `--reporter` knows besides Vitest's own (`default`, `verbose`, `dot`, `json`, `junit`, `blob`, ...). */
export const NEEDLEWORK_REPORTERS: readonly string[] = REPORTERS.map((row) => row.name);

/**
 * What `needlework run` writes without `--reporter`, by its context, as Vitest's reporters do (the rows of
 * reporters/table.ts): on a developer's machine the terminal (with the gate's story) and the history; in CI (the `CI`
 * variable) also the JUnit file, the HTML report and the job summary (which writes only where `GITHUB_STEP_SUMMARY`
 * is set). Any output is had on request with `--reporter`, and `needlework report` writes the HTML of any stored run.
 */
export function defaultReporters(env: NodeJS.ProcessEnv = process.env): string[] {
  return ['default', ...defaultRows(inCI(env)).map((row) => row.name)];
}

/** Vitest's built-in reporter names (its `ReportersMap`, plus `html`, which @vitest/ui provides). */
async function vitestReporterNames(): Promise<string[]> {
  const { ReportersMap } = await import('vitest/node');
  return [...Object.keys(ReportersMap), 'html'];
}

/** A reporter named by path (`./my-reporter.ts`), which Vitest loads as a module. */
function isPath(name: string): boolean {
  return /^\.{0,2}[\\/]|^[A-Za-z]:[\\/]|\.[cm]?[jt]s$/.test(name);
}

/**
 * Checks every `--reporter` before Vitest starts: a needlework reporter, a Vitest built-in, a reporter file, or a
 * package the project can resolve (as Vitest would load it). Anything else is a usage error naming the valid names,
 * instead of Vite's stack trace and a run that exits 0.
 *
 * @param root the project folder packages are resolved from.
 */
export async function checkReporterNames(names: readonly string[], root: string): Promise<void> {
  if (names.includes('html')) requireVitestUi('--reporter html', [root]);
  const vitest = await vitestReporterNames();
  const known = new Set<string>([...NEEDLEWORK_REPORTERS, ...vitest]);
  const require = createRequire(join(resolve(root), 'package.json'));
  for (const name of names) {
    if (known.has(name) || isPath(name)) continue;
    try {
      require.resolve(name);
      continue;
    } catch {
      // Not a package either: fall through to the error.
    }
    throw new UsageError(
      `--reporter ${name} is not a reporter: use one of ${NEEDLEWORK_REPORTERS.join(', ')}; Vitest's ${vitest.join(', ')}; a reporter file or package`,
    );
  }
}

/**
 * Vitest's HTML reporter and UI come from @vitest/ui, an optional package: without it Vitest stops mid-start with
 * "MISSING DEPENDENCY" and a stack trace. Checked before Vitest starts, where Vitest looks (the project folders in
 * `paths`, then Vitest's own), so a missing package is one usage error saying how to get it.
 */
export function requireVitestUi(
  flag: string,
  paths: readonly string[],
  vitestDir: string | null = VITEST_DIR,
): void {
  for (const from of [...paths, ...(vitestDir !== null ? [vitestDir] : [])]) {
    try {
      createRequire(join(resolve(from), 'package.json')).resolve('@vitest/ui');
      return;
    } catch {
      // Not found from this folder: try the next.
    }
  }
  throw new UsageError(
    `${flag} needs @vitest/ui, which this project does not have: install it (npm install -D @vitest/ui), or use needlework-html, needlework's own report`,
  );
}

/** The folder Vitest is installed in, which Vitest also resolves @vitest/ui from. */
const VITEST_DIR: string | null = (() => {
  try {
    return dirname(createRequire(import.meta.url).resolve('vitest/package.json'));
  } catch {
    return null;
  }
})();

/** What `--reporter junit` and `--reporter html` mean, said once: they are Vitest's, not needlework's. */
export function reporterNotes(names: readonly string[]): string[] {
  const notes: string[] = [];
  if (names.includes('junit'))
    notes.push(
      "--reporter junit is Vitest's JUnit reporter (vitest-junit.xml); needlework's is needlework-junit",
    );
  if (names.includes('html'))
    notes.push(
      "--reporter html is Vitest's HTML report (vitest/index.html); needlework's is needlework-html",
    );
  return notes;
}

/**
 * The reporter Vitest is given for a name: needlework's own (its row of reporters/table.ts), writing its file into
 * `outDir` and reading `store` (else `NEEDLEWORK_STORE`, else `.needlework/store`), the trend reporter with the run's
 * gate options; or the name, for Vitest to resolve.
 */
export async function reporterFor(
  name: string,
  outDir: string,
  store?: string,
  gate?: NeedleworkTrendOptions['gate'],
): Promise<Reporter | string> {
  const row = REPORTERS.find((r) => r.name === name);
  if (!row) return name;
  const module = (await import(`../../../reporters/${row.module}.js`)) as {
    default: new (options: Record<string, unknown>) => Reporter;
  };
  return new module.default({
    ...(row.file !== undefined && { outputFile: join(outDir, row.file) }),
    ...(row.store && store !== undefined && { store }),
    ...(row.module === 'trend' && gate && { gate }),
  });
}
