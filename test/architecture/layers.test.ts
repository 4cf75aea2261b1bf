import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkLayers, type LayerMap, repositoryFiles } from './graph.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const MAP: LayerMap = JSON.parse(readFileSync(join(ROOT, 'src/layers.json'), 'utf8'));

describe('the layers of src/layers.json', () => {
  const files = repositoryFiles(ROOT);

  it('hold: no import goes up a layer, and no file or folder is in an import cycle', () => {
    expect(checkLayers(files, MAP, ROOT)).toEqual([]);
  });

  it('fail on a planted upward import: the model importing the CLI', () => {
    const planted = new Map(files);
    planted.set('src/model/planted.ts', "import { createCli } from '../cli/cli.js';\n");
    expect(checkLayers(planted, MAP, ROOT)).toEqual([
      { kind: 'upward', detail: 'src/model/planted.ts imports src/cli/cli.ts: model is below cli' },
      { kind: 'folder cycle', detail: expect.stringContaining('cli <-> ') },
    ]);
  });

  it('fail on a planted cycle of two files in one folder, type-only imports included', () => {
    const planted = new Map(files);
    planted.set('src/checks/planted-a.ts', "import type { B } from './planted-b.js';\nexport type A = B;\n");
    planted.set('src/checks/planted-b.ts', "export { type A } from './planted-a.js';\nexport type B = 1;\n");
    expect(checkLayers(planted, MAP, ROOT)).toEqual([
      { kind: 'file cycle', detail: 'src/checks/planted-a.ts <-> src/checks/planted-b.ts' },
    ]);
  });

  it('fail on a folder outside the map', () => {
    const planted = new Map(files);
    planted.set('src/newthing/x.ts', 'export const x = 1;\n');
    expect(checkLayers(planted, MAP, ROOT)).toEqual([
      { kind: 'unmapped', detail: 'src/newthing/x.ts: newthing is in no layer of src/layers.json' },
    ]);
  });
});
