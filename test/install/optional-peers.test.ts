import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { useTmpDir } from '../helpers/tmp.js';

// The built package, run in a Node whose module resolution cannot find the optional entailment peers, as in a user's
// project that never installed them. A resolve hook also logs every module loaded, so a test can say what a command
// imported.
const ROOT = new URL('../../', import.meta.url).pathname;
const BIN = join(ROOT, 'dist/src/cli/bin.js');
const PEERS = ['onnxruntime-node', '@huggingface/tokenizers'];
const tmp = useTmpDir();

const HOOKS = `
import { appendFileSync } from 'node:fs';
let log;
export function initialize(data) { log = data.log; }
export async function resolve(specifier, context, next) {
  if (${JSON.stringify(PEERS)}.some((p) => specifier === p || specifier.startsWith(p + '/'))) {
    const error = new Error(\`Cannot find package '\${specifier}' imported from \${context.parentURL}\`);
    error.code = 'ERR_MODULE_NOT_FOUND';
    throw error;
  }
  const resolved = await next(specifier, context);
  appendFileSync(log, resolved.url + '\\n');
  return resolved;
}
`;

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
  /** Every module URL the process resolved (ES module imports; CommonJS requires inside a package are not seen). */
  loaded: string[];
}

/** Runs `node <args>` without the optional peers, from the repository root. */
async function withoutPeers(...args: string[]): Promise<Ran> {
  const dir = await tmp();
  const log = join(dir, 'loaded.txt');
  await writeFile(log, '');
  await writeFile(join(dir, 'hooks.mjs'), HOOKS);
  await writeFile(
    join(dir, 'register.mjs'),
    `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(join(dir, 'hooks.mjs')).href)}, { data: { log: ${JSON.stringify(log)} } });\n`,
  );
  const node = ['--import', pathToFileURL(join(dir, 'register.mjs')).href, ...args];
  let ran: Omit<Ran, 'loaded'>;
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, node, { cwd: ROOT });
    ran = { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    ran = { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
  return { ...ran, loaded: (await readFile(log, 'utf8')).split('\n').filter(Boolean) };
}

const MISSING =
  'error package.json: entailment needs the optional packages onnxruntime-node and @huggingface/tokenizers: npm install -D onnxruntime-node @huggingface/tokenizers';

describe('without the optional entailment packages', () => {
  it('the library, the Vitest entry and the reporters load', async () => {
    const entries = [
      'dist/src/index.js',
      'dist/src/vitest/index.js',
      'dist/reporters/junit.js',
      'dist/reporters/html.js',
      'dist/reporters/trend.js',
    ].map((path) => pathToFileURL(join(ROOT, path)).href);
    const script = `for (const entry of ${JSON.stringify(entries)}) await import(entry); console.log('loaded');`;
    const ran = await withoutPeers('--input-type=module', '-e', script);
    expect(ran.stderr).toBe('');
    expect(ran.stdout).toBe('loaded\n');
    expect(ran.code).toBe(0);
    // The hook did block them: nothing resolved to a peer.
    expect(ran.loaded.filter((url) => PEERS.some((p) => url.includes(`/node_modules/${p}/`)))).toEqual([]);
  });

  it('`needlework entail` fails with one line naming the packages to install, and exit 1', async () => {
    const ran = await withoutPeers(BIN, 'entail', 'a', 'b', '--nli-model', 'no-such-model');
    expect(ran.stderr).toBe(`${MISSING}\n`);
    expect(ran.code).toBe(1);
  });

  it('`needlework run --entail` fails with the same line before starting Vitest', async () => {
    const ran = await withoutPeers(BIN, 'run', 'fixtures/workups/grounded', '--entail', '--nli-model', 'x');
    expect(ran.stderr).toBe(`${MISSING}\n`);
    expect(ran.code).toBe(1);
    expect(ran.stdout).toBe(''); // no Vitest banner: no run started
  });

  it('`needlework score --entail` names the packages among its problems', async () => {
    const ran = await withoutPeers(BIN, 'score', 'fixtures/workups/grounded', '--entail', '--nli-model', 'x');
    expect(ran.stderr).toContain(
      'package.json: entailment needs the optional packages onnxruntime-node and @huggingface/tokenizers',
    );
    expect(ran.code).toBe(1);
  });

  it('`needlework validate <spec>` imports nothing heavy: no Vitest, no Ajv compiler, no note parser, no metrics, no HTML report', async () => {
    const ran = await withoutPeers(BIN, 'validate', 'needles/compound-alpha.needle.yaml');
    expect(ran.code).toBe(0);
    const heavy = ran.loaded.filter((url) =>
      [
        '/node_modules/vitest/',
        '/node_modules/ajv/',
        '/node_modules/micromark',
        '/dist/src/report/',
        '/dist/src/checks/',
        '/dist/src/metrics/',
        '/dist/src/entailment/',
      ].some((part) => url.includes(part)),
    );
    expect(heavy).toEqual([]);
  });
});
