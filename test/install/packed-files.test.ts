import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, normalize } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

// What `npm pack` puts in the tarball, without packing or installing: an npm user opens the README and the docs from
// node_modules/needlework (or the registry's page), so every relative link they hold must point into the package.
const ROOT = new URL('../../', import.meta.url).pathname;

async function packedFiles(): Promise<Set<string>> {
  const { stdout } = await promisify(execFile)('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: ROOT,
    maxBuffer: 64 * 1024 * 1024,
  });
  const [pack] = JSON.parse(stdout) as Array<{ files: Array<{ path: string }> }>;
  return new Set(pack!.files.map((f) => f.path));
}

/** The relative links of a markdown file (no URL, no in-page anchor), without their anchors, from the package root. */
async function relativeLinks(file: string): Promise<string[]> {
  // Code (fenced blocks, `spans`) shows link syntax; it links nothing.
  const text = (await readFile(join(ROOT, file), 'utf8'))
    .replace(/```[\s\S]*?```/g, '')
    .replace(/`[^`\n]*`/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1]!.split('#')[0]!)
    .filter((link) => link !== '' && !/^[a-z]+:/i.test(link))
    .map((link) => normalize(join(dirname(file), link)).replace(/\/$/, ''));
}

describe('the packed package', () => {
  it('ships the docs and names its repository, so every link of the README and between the docs opens', async () => {
    const files = await packedFiles();
    const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { repository?: unknown };
    expect(pkg.repository).toEqual({
      type: 'git',
      url: 'git+https://github.com/needlework-dev/needlework.git',
    });
    const docs = (await readdir(join(ROOT, 'docs'))).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`);
    for (const doc of docs) expect(files).toContain(doc);
    const readme = await relativeLinks('README.md');
    expect(readme.filter((link) => link.startsWith('docs/')).length).toBeGreaterThan(20);
    const missing = readme.filter(
      (link) => !files.has(link) && ![...files].some((f) => f.startsWith(`${link}/`)),
    );
    expect(missing).toEqual([]);
    // Between the docs (and back to the README): examples/ is not packed, so the docs link to it in the repository.
    for (const doc of docs) {
      const links = await relativeLinks(doc);
      expect(
        links.filter((link) => !files.has(link)),
        doc,
      ).toEqual([]);
    }
  }, 60_000);
});
