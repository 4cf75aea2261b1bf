import { copyFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatDiagnostic, UserError } from '../../src/errors/index.js';
import { loadSpecs, parseSpec } from '../../src/specs/load.js';
import { useTmpDir } from '../helpers/tmp.js';

const NEEDLES = new URL('../../needles/', import.meta.url).pathname;
const tmp = useTmpDir();

function problems(text: string, file = 'bridge.needle.yaml'): string[] {
  try {
    parseSpec(text, file);
  } catch (error) {
    if (error instanceof UserError) return error.diagnostics.map(formatDiagnostic);
    throw error;
  }
  throw new Error('expected the spec to fail');
}

describe('the built-in specs', () => {
  it('load clean, normalized to the long form', async () => {
    const specs = await loadSpecs(NEEDLES);
    expect(specs.errors).toEqual([]);
    expect(specs.needles.map((n) => n.id)).toEqual(['compound-alpha-bridge', 'wren-tie']);
    expect(specs.needles[0]).toMatchObject({
      answer: 'Compound-Alpha',
      aliases: ['Compound Alpha'],
      required_path: {
        relations: ['MEMBER_OF', 'CO_LOCATED', 'CO_LOCATED'],
        from: 'Halberd',
        to: 'Wren',
        directed: false,
      },
      stores: [],
      thresholds: { supporting_fact_f1: 0.8, pivot_burden: 20 },
    });
    expect(specs.rubrics.map((r) => [r.id, r.criteria.map((c) => c.id)])).toEqual([
      ['icd-203', ['alternatives', 'argumentation', 'relevance', 'accuracy']],
    ]);
    expect(specs.rubrics[0]!.criteria[0]!.anchors[5]).toMatch(/competing hypotheses/);
    expect(specs.rubrics[0]!.criteria[0]!.weight).toBe(1);
  });

  it('accept the short form of required_path', () => {
    const spec = parseSpec('id: x\nanswer: y\nrequired_path: [A, B]\n', 'x.needle.yaml');
    expect(spec).toMatchObject({
      kind: 'needle',
      required_path: { relations: ['A', 'B'], directed: false },
      required_cites: [],
    });
  });

  it('read the same whichever YAML reader takes them (an anchor leaves the light path for the yaml Document)', () => {
    const plain = 'id: x\nanswer: y\naliases: [A, B]\nrequired_path: [A, B]\n';
    const anchored = 'id: x\nanswer: y\naliases: &p [A, B]\nrequired_path: *p\n';
    expect(parseSpec(anchored, 'x.needle.yaml')).toEqual(parseSpec(plain, 'x.needle.yaml'));
  });
});

describe('a broken spec', () => {
  it('is reported at the line and column of each problem, with the path and what was expected', () => {
    const text = [
      'id: bridge',
      'answer: Compound-Alpha',
      'required_path:',
      '  relations:',
      '    - MEMBER_OF',
      '    - 42',
      '  drected: true',
      'requird_cites: []',
      'thresholds:',
      '  supporting_fact_f1: 1.5',
      '  pivot_burden: many',
    ].join('\n');
    expect(problems(text, 'needles/bridge.needle.yaml')).toEqual([
      'needles/bridge.needle.yaml:6:7: required_path.relations[1] must be a string',
      'needles/bridge.needle.yaml:7:3: unknown key "drected" in required_path (did you mean "directed"?); expected one of: relations, from, to, directed',
      'needles/bridge.needle.yaml:8:1: unknown key "requird_cites" (did you mean "required_cites"?); expected one of: $schema, id, title, description, answer, aliases, required_path, required_cites, workups, stores, thresholds',
      'needles/bridge.needle.yaml:10:23: thresholds.supporting_fact_f1 must be <= 1',
      'needles/bridge.needle.yaml:11:17: thresholds.pivot_burden must be an integer',
    ]);
  });

  it('names a missing required key at the mapping that lacks it', () => {
    expect(problems('id: x\nrequired_path: [A]\n')).toEqual(['bridge.needle.yaml:1:1: answer is required']);
    expect(problems('id: x\nanswer: y\nrequired_path:\n  from: A\n')).toEqual([
      'bridge.needle.yaml:4:3: required_path.relations is required',
    ]);
  });

  it('says what required_path may be when it is neither form', () => {
    expect(problems('id: x\nanswer: y\nrequired_path: 7\n')).toEqual([
      'bridge.needle.yaml:3:16: required_path must be a list of relations or an object { relations, from?, to?, directed? }',
    ]);
    expect(problems('id: x\nanswer: y\nrequired_path: []\n')).toEqual([
      'bridge.needle.yaml:3:16: required_path must have at least 1 item',
    ]);
  });

  it('reports YAML syntax errors and duplicate keys with their place', () => {
    // An unclosed bracket is placed just past what the file writes, not on the line after it.
    expect(problems('id: x\nanswer: [1\n')).toEqual([
      'bridge.needle.yaml:2:11: not valid YAML: unexpected end of the stream within a flow collection',
    ]);
    expect(problems('id: x\nid: y\n')).toEqual([
      'bridge.needle.yaml:2:1: not valid YAML: duplicated mapping key "id"',
    ]);
  });

  it('refuses an alias bomb instead of expanding it', () => {
    const lines = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 6; i++)
      lines.push(
        `${'abcdef'[i]}: &${'abcdef'[i]} [${Array(10)
          .fill(`*${'abcdef'[i - 1]}`)
          .join(', ')}]`,
      );
    // Placed at the alias that passes the limit: b, c and d repeat 12,330 nodes, each *d in e 11,111 more, the eighth
    // passing 100,000.
    expect(problems(lines.join('\n'))).toEqual([
      'bridge.needle.yaml:5:36: cannot expand the document: its aliases repeat more than 100,000 nodes (a "billion laughs" document?); needlework reads no further',
    ]);
  });

  it('checks rubric anchors 1 to 5', () => {
    const text =
      'id: r\ncriteria:\n  - id: c\n    title: T\n    question: Q?\n    anchors: { 1: a, 2: b, 3: c, 5: e }\n';
    expect(problems(text, 'r.rubric.yaml')).toEqual([
      'r.rubric.yaml:6:14: criteria[0].anchors.4 is required',
    ]);
  });

  it('refuses a file whose name says no spec kind', () => {
    expect(problems('id: x', 'bridge.yaml')).toEqual([
      'bridge.yaml: expected a spec file named *.needle.yaml, *.rubric.yaml or *.cases.yaml',
    ]);
  });
});

describe('loadSpecs', () => {
  it('checks every spec: one bad spec never stops the others', async () => {
    const dir = await tmp();
    await copyFile(join(NEEDLES, 'wren-tie.needle.yaml'), join(dir, 'a.needle.yaml'));
    await writeFile(join(dir, 'b.needle.yaml'), 'id: b\n');
    await copyFile(join(NEEDLES, 'icd-203.rubric.yaml'), join(dir, 'c.rubric.yaml'));
    const specs = await loadSpecs(dir);
    expect(specs.needles.map((n) => n.id)).toEqual(['wren-tie']);
    expect(specs.rubrics.map((r) => r.id)).toEqual(['icd-203']);
    expect(specs.errors.map(formatDiagnostic)).toEqual([
      `${join(dir, 'b.needle.yaml')}:1:1: answer is required`,
      `${join(dir, 'b.needle.yaml')}:1:1: required_path is required`,
    ]);
    expect(specs.failures.map((f) => f.file)).toEqual([join(dir, 'b.needle.yaml')]);
  });

  it('reports two specs with one id', async () => {
    const dir = await tmp();
    const text = await readFile(join(NEEDLES, 'wren-tie.needle.yaml'), 'utf8');
    await writeFile(join(dir, 'a.needle.yaml'), text);
    await writeFile(join(dir, 'b.needle.yaml'), text);
    const specs = await loadSpecs([join(dir, '*.needle.yaml')]);
    expect(specs.needles).toHaveLength(1);
    expect(specs.errors.map(formatDiagnostic)).toEqual([
      `${join(dir, 'b.needle.yaml')}: duplicate needle id "wren-tie" (also in ${join(dir, 'a.needle.yaml')})`,
    ]);
  });

  it('reports patterns that match nothing', async () => {
    const dir = await tmp();
    const specs = await loadSpecs([dir, join(dir, 'nope.needle.yaml')]);
    expect(specs.errors.map(formatDiagnostic)).toEqual([
      `${dir}: no specs (*.needle.yaml, *.rubric.yaml, *.cases.yaml) found`,
      `${join(dir, 'nope.needle.yaml')}: no such file or folder`,
    ]);
  });
});
