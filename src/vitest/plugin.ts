import { isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { globSync } from 'tinyglobby';
import type { Plugin } from 'vite';
import { configDefaults } from 'vitest/config';
import type { VerifierOptions } from '../entailment/create.js';
import { specKind } from '../specs/file.js';
import type { SpecSuiteOptions } from './suite.js';

export interface NeedleworkOptions {
  /**
   * Spec files that become test files, as globs relative to the Vitest root.
   * @default ['needles/**\/*.needle.yaml', 'needles/**\/*.rubric.yaml', 'needles/**\/*.cases.yaml']
   */
  needles?: string | string[];
  /**
   * The workups every spec is run against: folders, `*.workup.json` files and globs, relative to the root.
   * @default ['workups']
   */
  workups?: string | string[];
  /** Check citation precision with an NLI model: `true` (the model from `NEEDLEWORK_NLI_MODEL`) or its settings. */
  entail?: boolean | VerifierOptions;
  /** The judge for rubric specs: a chat-completions base URL or `replay:<cassette>`, with options. */
  judge?: string | SpecSuiteOptions['judge'];
  /**
   * Keep the project's own test files (Vitest's `include`) beside the spec files, with the matchers registered for
   * them (`setupFiles`); `needlework run` turns this off so that only specs run.
   * @default true
   */
  includeTests?: boolean;
  /**
   * Keep each spec file as read in Vite's cache folder (`cacheDir`, by default `node_modules/.vite`), so that a file
   * that has not changed is not parsed again on the next run (a run checks new workups against the same specs). An
   * entry is keyed by the file's path and text and by needlework's build; a spec that names another file (a judge's
   * rubric file) is always read anew.
   * @default true
   */
  specCache?: boolean;
  /** Share loaded workups between spec files in a worker; set by `needlework run` with `isolate: false`. */
  reuseWorkups?: boolean;
  /**
   * Where `runAgent` (`agentTest`, `describeAgent`) saves live runs' workups, relative to the root, for the reporters
   * and `needlework score`.
   * @default '.needlework/workups'
   */
  saveWorkups?: string;
}

const here = fileURLToPath(import.meta.url);
// The plugin runs from dist/ (a user's project) or from src/ (this repository's tests): its siblings share its extension.
const sibling = (name: string) => join(here, '..', `${name}${here.endsWith('.ts') ? '.ts' : '.js'}`);

/** Whether the plugin runs from the built package (else from this repository's TypeScript sources, which Vite must transform). */
const BUILT = here.endsWith('.js');
/** needlework's built modules: the `dist` folder the plugin is in. */
const OWN_MODULES = new RegExp(`^${escapeRegExp(join(here, '..', '..', '..'))}[\\\\/]`);

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function list(value: string | string[] | undefined, fallback: string[]): string[] {
  if (value === undefined) return fallback;
  return typeof value === 'string' ? [value] : value;
}

/**
 * A path under a workup pattern: its part before the first glob character, then anything. Broad on purpose: a
 * spurious re-run costs little, a missed one shows stale results.
 */
function underneath(root: string, pattern: string): RegExp {
  const fixed = resolve(root, pattern.split(/[*?[{]/)[0]!).replace(/\/+$/, '');
  return new RegExp(`^${escapeRegExp(fixed)}`);
}

/**
 * The needlework Vitest plugin: every `*.needle.yaml`, `*.rubric.yaml` and `*.cases.yaml` it is pointed at becomes a
 * test file with a
 * `describe` per workup and an `it` per criterion, and the matchers are registered in every test file. Editing a spec
 * re-runs its tests in watch mode; editing a workup re-runs the spec tests.
 * @example
 * ```ts
 * // vitest.config.ts
 * import { defineConfig } from 'vitest/config';
 * import { needlework } from 'needlework/vitest';
 *
 * // Every spec under needles/ becomes tests over every workup under runs/, with the matchers registered.
 * export default defineConfig({
 *   plugins: [needlework({ needles: 'needles', workups: 'runs' })],
 * });
 * ```
 */
export function needlework(options: NeedleworkOptions = {}): Plugin {
  const needles = list(options.needles, [
    'needles/**/*.needle.yaml',
    'needles/**/*.rubric.yaml',
    'needles/**/*.cases.yaml',
  ]);
  const workups = list(options.workups, ['workups']);
  const entail: VerifierOptions | undefined =
    options.entail === true
      ? {}
      : options.entail === false || options.entail === undefined
        ? undefined
        : options.entail;
  const judge = typeof options.judge === 'string' ? { spec: options.judge } : options.judge;
  let root = process.cwd();
  let specCache: string | undefined;

  return {
    name: 'needlework',
    enforce: 'pre',
    config(config) {
      // Mutated rather than returned: Vite would concatenate a returned list with the user's own.
      config.test ??= {};
      const test = config.test;
      const own = options.includeTests === false ? [] : (test.include ?? configDefaults.include);
      test.include = [...own, ...needles];
      // The matchers are for the project's own tests: spec tests assert with none (30 ms of every worker's start).
      if (options.includeTests !== false) {
        const setupFiles =
          test.setupFiles === undefined
            ? []
            : typeof test.setupFiles === 'string'
              ? [test.setupFiles]
              : test.setupFiles;
        test.setupFiles = [...setupFiles, sibling('setup')];
      }
      if (BUILT) {
        // The generated spec modules import needlework's own built modules: Node loads them natively, as it does any
        // package under node_modules, rather than each one through Vite's transform and the worker's module runner
        // (from a linked checkout or a monorepo, that cost a second of every run's start).
        test.server ??= {};
        test.server.deps ??= {};
        test.server.deps.external = [...(test.server.deps.external ?? []), OWN_MODULES];
      }
      // A workup is no module of the test's graph, so Vitest is told which tests its change affects: every spec.
      const base = config.root ? resolve(config.root) : process.cwd();
      if (options.saveWorkups !== undefined) {
        // Test workers read it from their environment (see agent.ts).
        test.env = { ...test.env, NEEDLEWORK_SAVE_WORKUPS: resolve(base, options.saveWorkups) };
      }
      test.watchTriggerPatterns = [
        ...(test.watchTriggerPatterns ?? []),
        ...workups.map((w) => ({
          pattern: underneath(base, w),
          testsToRun: () => globSync(needles, { cwd: base, absolute: true, ignore: ['**/node_modules/**'] }),
        })),
      ];
    },
    configResolved(config) {
      root = config.root;
      specCache = join(config.cacheDir, 'needlework', 'specs');
    },
    load(id) {
      const file = id.split('?')[0]!;
      if (!specKind(file)) return undefined;
      const suite: SpecSuiteOptions = {
        specFile: file,
        workups: workups.map((w) => (isAbsolute(w) ? w : resolve(root, w))),
        root,
        // From the built package only: from this repository's sources, an edit to the reader would not be seen.
        ...(BUILT && options.specCache !== false && specCache !== undefined && { specCache }),
        ...(entail && { entail }),
        ...(judge && { judge }),
        ...(options.reuseWorkups && { reuseWorkups: true }),
      };
      return [
        `import { defineSpecSuite } from ${JSON.stringify(sibling('suite'))};`,
        `await defineSpecSuite(${JSON.stringify(suite)});`,
      ].join('\n');
    },
  };
}
