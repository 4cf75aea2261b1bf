import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { displayPath, projectPath, projectPaths, relativeInside } from '../../src/io/display-path.js';

const root = resolve('/p/project');

describe('relativeInside', () => {
  it('gives the path from the folder when it lies inside, and nothing when it climbs out', () => {
    expect(relativeInside(root, join(root, 'workups/a'))).toBe(join('workups', 'a'));
    expect(relativeInside(root, root)).toBe('');
    // A name that starts with two dots is a file of the folder, not a way out of it.
    expect(relativeInside(root, join(root, '..notes'))).toBe('..notes');
    expect(relativeInside(root, resolve(root, '..'))).toBeUndefined();
    expect(relativeInside(root, resolve(root, '../other/x'))).toBeUndefined();
    expect(relativeInside(root, resolve(root, 'a/../../etc/passwd'))).toBeUndefined();
  });
});

describe('displayPath', () => {
  it('prints a path inside the working folder relative to it, any other as it is', () => {
    expect(displayPath(join(root, 'needles/a.needle.yaml'), root)).toBe(join('needles', 'a.needle.yaml'));
    expect(displayPath(join(root, '..notes'), root)).toBe('..notes');
    expect(displayPath(resolve('/elsewhere/x'), root)).toBe(resolve('/elsewhere/x'));
    expect(displayPath(root, root)).toBe(root);
  });
});

describe('projectPaths', () => {
  it('names each file as projectPath does, asked once or many times, inside the root or not', () => {
    const pathOf = projectPaths(root);
    const files = [
      join(root, 'workups/a'),
      'workups/b',
      resolve('/elsewhere/c'),
      join(root, 'workups/a'),
      root,
    ];
    expect(files.map(pathOf)).toEqual(files.map((file) => projectPath(root, file)));
    expect(files.map(pathOf)).toEqual([
      'workups/a',
      'workups/b',
      resolve('/elsewhere/c'),
      'workups/a',
      resolve(root),
    ]);
  });
});
