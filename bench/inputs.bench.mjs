// Hostile inputs up to 1 MB, each through the loader the CLI uses for it, timed in CPU: a file with thousands of
// schema errors (every error used to re-parse the whole file: 1,000 bad steps took 4 s, 2,000 took 17 s), a file nested
// hundreds of thousands of levels deep, a spec with 130,000 diagnostics (which overflowed the stack), a trend history
// of 200,000 bad runs. Target: none over 1 s CPU, none crashing (our own UserError only). Prints JSON.parse of the
// same text, measured in this same run, as the yardstick (the machine is shared: compare ratios).
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const { loadWorkup } = await import('../dist/src/workup/load.js');
const { loadSpecs } = await import('../dist/src/specs/load.js');
const { readHistory } = await import('../dist/src/history/history.js');
const { readLedger } = await import('../dist/src/workup/ledger.js');
const { UserError } = await import('../dist/src/errors/index.js');

const TARGET_MS = 1000;
const MB = 1024 * 1024;

/** A list of `make(i)` texts joined by `,`, as long as fits in `bytes`. */
function fill(bytes, make, join = ',') {
  const parts = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const part = make(i);
    parts.push(part);
    size += part.length + join.length;
  }
  return parts.join(join);
}

/**
 * 1 MB of task cases in the peer workload's shape (each case its calls in order and its answer), case 7's `match`
 * written as `match:${match7}` (a typo, or nothing: an emptied value), and case i's calls as `calls(i)` writes them.
 */
const peerCases = (id, match7, calls = ownCalls) =>
  `id: ${id}\ncases:\n${fill(
    MB,
    (i) =>
      `  - id: case-${i}\n    expect:\n      tool_calls:\n        match:${i === 7 ? match7 : ' strict'}\n        calls: ${calls(i)}\n      answer:\n        equals: "Booked R${i}."`,
    '\n',
  )}\n`;

/** Case i's calls, a flow list on one line. */
const ownCalls = (i) =>
  `[{ name: lookup, args: { id: ${i} } }, { name: book, args: { id: ${i}, seat: "${i % 30}A" } }]`;

/** Case i's calls, but case 7's written as `text` (a construct the row is about). */
const case7Calls = (text) => (i) => (i === 7 ? text : ownCalls(i));

/**
 * Case i's calls, case 0's anchored (`&calls`) and aliased by cases 1-98 (the most the yaml path's alias limit of 100
 * lets one anchor be used), as an author who writes a common list once does.
 */
const sharedCalls = (i) => (i === 0 ? `&calls ${ownCalls(i)}` : i <= 98 ? '*calls' : ownCalls(i));

/** Case i's calls, a flow list over several lines, one call a line, as a formatter writes a long one. */
const callsOverLines = (i) =>
  `[\n          { name: lookup, args: { id: ${i} } },\n          { name: book, args: { id: ${i}, seat: "${i % 30}A" } }\n        ]`;

/**
 * A workup whose note is 1 MB of cited bullets, one of them carrying `character` (what a fuzzer leaves, or a copy from
 * a terminal): the block parser reads control characters as the full parser does.
 */
const bulletsWith = (character) =>
  `# Workup\n\n## Findings\n\n${fill(MB, (i) => `- Ash Cell is co-located at Compound-Alpha${i === 500 ? character : ''}. [cite:g${i % 9}]`, '\n')}\n`;
const loadNoteFolder = (file) => loadWorkup(dirname(file));

const badSteps = (n) =>
  `{"id": "w", "trajectory": {"task_id": "t", "steps": [\n${Array.from({ length: n }, (_, i) => `  {"step_id": ${i}, "step_type": "oops"}`).join(',\n')}\n]}}\n`;

const cases = [
  ['workup.json, 1,000 bad steps', 'workup.json', badSteps(1000), loadWorkup],
  ['workup.json, 2,000 bad steps', 'workup.json', badSteps(2000), loadWorkup],
  [
    'workup.json, 1 MB of bad steps',
    'workup.json',
    `{"id": "w", "trajectory": {"task_id": "t", "steps": [\n${fill(MB, (i) => `{"step_id": ${i}, "step_type": "oops"}`, ',\n')}\n]}}\n`,
    loadWorkup,
  ],
  [
    'workup.json nested 500,000 deep',
    'workup.json',
    `${'['.repeat(500000)}${']'.repeat(500000)}`,
    loadWorkup,
  ],
  [
    'provenance.jsonl, 1 MB of bad lines',
    'provenance.jsonl',
    fill(MB, (i) => `{"id": "g${i}", "store": 1, "query": "q", "results": [{"subject": 2}]}`, '\n'),
    readLedger,
  ],
  ['note.md, 1 MB of cited bullets, one control character', 'w/note.md', bulletsWith('\x05'), loadNoteFolder],
  ['note.md, 1 MB of cited bullets, one NUL', 'w/note.md', bulletsWith('\0'), loadNoteFolder],
  [
    'note.md, 1 MB of cited bullets, one `<` before a word',
    'w/note.md',
    bulletsWith(' co-l<cated'),
    loadNoteFolder,
  ],
  [
    'note.md, 1 MB of cited bullets after a byte-order mark',
    'w/note.md',
    `\uFEFF${bulletsWith('')}`,
    loadNoteFolder,
  ],
  // An HTML comment in a line, and comments that never close: the full parser's until 2026-11-27 (3.2 s, and more
  // than 10 minutes).
  [
    'note.md, 1 MB of cited bullets, one HTML comment',
    'w/note.md',
    bulletsWith(' <!-- checked twice -->'),
    loadNoteFolder,
  ],
  [
    'note.md, one 1 MB paragraph of comments and instructions that never close',
    'w/note.md',
    `# Workup\n\n${fill(MB, () => 'a <!-- b <? c <!D')} [cite:g1]\n`,
    loadNoteFolder,
  ],
  // A tag over two lines, and 90 KB of comments that never close beside one: the full parser's until 2026-11-27
  // (the second 22 s: micromark reads each comment to its paragraph's end).
  [
    'note.md, 1 MB of cited bullets, one tag over two lines',
    'w/note.md',
    bulletsWith(' <span\n  class="x">'),
    loadNoteFolder,
  ],
  [
    'note.md, 90 KB of comments that never close, a tag over two lines after them',
    'w/note.md',
    `# Workup\n\n${'a <!-- b '.repeat(10_000)}[cite:g1]\n\n- Ash Cell met Wren <b\n  class=x> at the depot. [cite:g4]\n`,
    loadNoteFolder,
  ],
  // A `<` before a bullet's first word (a paragraph that begins with `<` and no tag): the full parser's until
  // 2026-11-27 (4.6 s).
  [
    'note.md, 1 MB of cited bullets, one begins with "<"',
    'w/note.md',
    `# Workup\n\n## Findings\n\n${fill(MB, (i) => `- ${i === 500 ? '<' : ''}Ash Cell is co-located at Compound-Alpha. [cite:g${i % 9}]`, '\n')}\n`,
    loadNoteFolder,
  ],
  // A link over two lines: the full parser's until 2026-11-27.
  [
    'note.md, 1 MB of cited bullets, one link over two lines',
    'w/note.md',
    bulletsWith(' [the log](https://example.com/runs/\n  42)'),
    loadNoteFolder,
  ],
  // A code span over two lines: the full parser's until 2026-11-27.
  [
    'note.md, 1 MB of cited bullets, one code span over two lines',
    'w/note.md',
    bulletsWith(' `grep -r\n  depot`'),
    loadNoteFolder,
  ],
  // A NUL by an emphasis delimiter: the full parser's until 2026-11-27 (4.2-4.5 s), for a quirk of micromark's.
  [
    'note.md, 1 MB of cited bullets, one NUL by an emphasis delimiter',
    'w/note.md',
    bulletsWith(' **\0*'),
    loadNoteFolder,
  ],
  [
    'needle YAML, 130,000 diagnostics',
    'a.needle.yaml',
    `id: a\nanswer: x\nrequired_path:\n  relations: [${Array(130000).fill('{}').join(', ')}]\n`,
    loadSpecs,
  ],
  [
    'needle YAML flow-nested 500,000 deep',
    'b.needle.yaml',
    `${'['.repeat(500000)}${']'.repeat(500000)}`,
    loadSpecs,
  ],
  [
    // One typo in a large cases file, the shape of the peer workload's: each case its calls and answer.
    'cases YAML, 1 MB of cases, one typo',
    'd.cases.yaml',
    peerCases('typo', ' stricter'),
    loadSpecs,
  ],
  [
    // The same with one value emptied (an empty node, placed as the yaml composer places it since 2026-11-26: it sent
    // the file to the Document, 1.5 s).
    'cases YAML, 1 MB of cases, one emptied value',
    'd.cases.yaml',
    peerCases('emptied', ''),
    loadSpecs,
  ],
  [
    // The same typo in cases that share an anchored list of calls (the file went to the Document until 2026-11-26:
    // 1.1-1.5 s for 1 MB with a single anchor, even without a typo).
    'cases YAML, 1 MB of cases sharing anchored calls, one typo',
    'd.cases.yaml',
    peerCases('anchored', ' stricter', sharedCalls),
    loadSpecs,
  ],
  [
    // Cases sharing anchored calls (as above), and in case 2,000, after every alias, a key indented one space less: a
    // syntax error that the cases read item by item do not explain (each alias item read where it stands), so the
    // file's own (the file went to the yaml Document until 2026-11-27, as any syntax error after an anchor: 1.4-1.6 s
    // CPU; read in windows of it since, 0.27-0.31 s; js-yaml alone since issue 46).
    'cases YAML, 1 MB of cases sharing anchored calls, a key indented one less after them',
    'd.cases.yaml',
    peerCases('anchored', ' strict', sharedCalls).replace(
      /( {2}- id: case-2000\n {4}expect:\n {6}tool_calls:\n) {8}match/,
      '$1       match',
    ),
    loadSpecs,
  ],
  // Constructs js-yaml reads apart from the yaml package in one case: each went to the yaml Document until 2026-11-27
  // (1.4-1.9 s CPU), and was read around that case since; js-yaml alone reads them since issue 46 (a collection as a
  // key and a tag outside the core schema are refused at their place, that case alone).
  [
    'cases YAML, 1 MB of cases, a collection as a key in one',
    'd.cases.yaml',
    peerCases('collection-key', ' strict', case7Calls('{ [a, b]: c }')),
    loadSpecs,
  ],
  [
    'cases YAML, 1 MB of cases, a verbatim tag and a !!binary in one',
    'd.cases.yaml',
    peerCases(
      'verbatim',
      ' strict',
      case7Calls('!<tag:yaml.org,2002:seq> [{ name: lookup, args: { key: !!binary aGVsbG8= } }]'),
    ),
    loadSpecs,
  ],
  [
    // Eight such cases spread over the file: each read around in turn, the text between them read twice in all.
    'cases YAML, 1 MB of cases, a verbatim tag in eight spread over it',
    'd.cases.yaml',
    peerCases('verbatim-8', ' strict').replace(
      /equals: "Booked R(1|3|6|9|12|15|18|21)00\."/g,
      'equals: !<tag:yaml.org,2002:str> R$100',
    ),
    loadSpecs,
  ],
  [
    'cases YAML, 1 MB of cases, a quoted "null" key in one',
    'd.cases.yaml',
    peerCases('quoted-null', ' strict').replace('  - id: case-7\n', '  - id: case-7\n    "null": 1\n'),
    loadSpecs,
  ],
  [
    // A list whose empty item an item less indented follows, which js-yaml would read into that list: refused there.
    'cases YAML, 1 MB of cases, a nested list with an empty item in one',
    'd.cases.yaml',
    peerCases('apart', ' strict').replace('  - id: case-7\n', '  - - x\n    -\n  - id: case-7\n'),
    loadSpecs,
  ],
  [
    // The same typo, case 7's calls an anchored list holding an alias of case 0's first call: an alias inside an
    // anchored node (the file went to the Document until 2026-11-27: 1.5-1.7 s CPU).
    'cases YAML, 1 MB of cases with an alias inside an anchored list, one typo',
    'd.cases.yaml',
    peerCases('nested-alias', ' stricter', (i) =>
      i === 0
        ? '[&first { name: lookup, args: { id: 0 } }]'
        : i === 7
          ? `&seven [*first, { name: book, args: { id: 7 } }]`
          : i === 8
            ? '*seven'
            : ownCalls(i),
    ),
    loadSpecs,
  ],
  [
    // Case 7's calls a block list ending in an empty item, its next call written at the column of `calls:`: js-yaml
    // would read that call into the list, and it is refused there (the file went to the yaml Document until
    // 2026-11-27: 1.2-1.3 s CPU).
    "cases YAML, 1 MB of cases, an empty call and one at its key's column after it",
    'd.cases.yaml',
    peerCases(
      'empty-item',
      ' strict',
      case7Calls('\n          - { name: lookup }\n          -\n        - { name: book }'),
    ),
    loadSpecs,
  ],
  [
    // The same typo in cases whose calls are flow lists over several lines (the file went to the Document until
    // 2026-11-27: 1.1-2.5 s CPU).
    'cases YAML, 1 MB of cases with calls over several lines, one typo',
    'd.cases.yaml',
    peerCases('lines', ' stricter', callsOverLines),
    loadSpecs,
  ],
  [
    // One anchor aliased by 150 cases: refused by the yaml package's alias limit, which counted uses (2.1 s; on the
    // light path since 2026-11-27, 3-4 ms); read since issue 46, whose limit counts the nodes aliases repeat.
    'cases YAML, 1 MB of cases, an anchor aliased 150 times',
    'd.cases.yaml',
    peerCases('aliased', ' stricter', (i) =>
      i === 0 ? `&calls ${ownCalls(i)}` : i <= 150 ? '*calls' : ownCalls(i),
    ),
    loadSpecs,
  ],
  [
    // The typo in a file with a `null:` key, an empty list item, and an anchor and a `!!str` on keys: each went to the
    // Document until 2026-11-27 (1.3-1.5 s).
    'cases YAML, 1 MB of cases with a null key, an empty item and properties on keys, one typo',
    'd.cases.yaml',
    peerCases('shapes', ' stricter')
      .replace('  - id: case-3\n', '  - &third id: case-3\n    !!str note: *third\n')
      .replace('  - id: case-5\n', '  - id: case-5\n    tags:\n      - a\n      -\n') + 'null: x\n',
    loadSpecs,
  ],
  [
    // The same typo after a `%YAML 1.2` directive (the file went to the Document until 2026-11-27: 2.2 s CPU).
    'cases YAML, 1 MB of cases after a %YAML 1.2 directive, one typo',
    'd.cases.yaml',
    `%YAML 1.2\n---\n${peerCases('directive', ' stricter')}`,
    loadSpecs,
  ],
  [
    // Syntax errors in a large cases file: each sent the whole file to the yaml package (2.3-3.3 s CPU for 1 MB)
    // until 2026-11-27, then a window around each error; since issue 46 the file is read again without the cases
    // that fail (src/parse/yaml.ts, readYaml), and the other cases load.
    'cases YAML, 1 MB of cases, a tab as indentation in a case at the end',
    'g.cases.yaml',
    `${peerCases('tab', ' strict')}  - id: last\n\texpect: {}\n`,
    loadSpecs,
  ],
  [
    'cases YAML, 1 MB of cases, a stray ] in case 7',
    'g.cases.yaml',
    peerCases('bracket', ' strict ]'),
    loadSpecs,
  ],
  [
    'cases YAML, 1 MB of cases, a quote left open in the middle',
    'g.cases.yaml',
    peerCases('quote', ' strict').replace('"Booked R2400."', '"Booked R2400.'),
    loadSpecs,
  ],
  [
    'cases YAML, 1 MB of cases, errors in cases 7, 2,400 and at the end',
    'g.cases.yaml',
    `${peerCases('three', ' strict ]').replace('"Booked R2400."', '"Booked R2400.')}  - id: last\n\texpect: {}\n`,
    loadSpecs,
  ],
  [
    // The same in flow lists, which are not read item by item: the file's first error.
    'needle YAML, 1 MB flow list of relations on one line, a stray ] at its end',
    'h.needle.yaml',
    `id: a\nanswer: x\nrequired_path:\n  relations: [${fill(MB, (i) => `R${i}`, ', ')}, ]]\n`,
    loadSpecs,
  ],
  [
    'cases YAML, 1 MB of cases in a flow list over many lines, a stray ] in the last case',
    'h.cases.yaml',
    `id: f\ncases: [\n${fill(MB, (i) => `  { id: case-${i}, expect: { answer: { equals: "R${i}." } } }`, ',\n')},\n  { id: last, expect: ] }\n]\n`,
    loadSpecs,
  ],
  [
    // A line at the margin in a case: it ends the cases list to the splitter, and js-yaml fails there: the file's error.
    'cases YAML, 1 MB of cases, a line at the margin in case 100',
    'g.cases.yaml',
    peerCases('margin', ' strict').replace('  - id: case-100\n', '  - id: case-100\nt\n'),
    loadSpecs,
  ],
  [
    // A line of a call list indented no more than its block near the end: a syntax error to the yaml package that
    // js-yaml reads through (2.2 s CPU to the yaml package; read in windows from where its lexer cut the list short
    // until issue 46, 0.45 s); js-yaml alone reads the file.
    'cases YAML, 1 MB of cases with calls over several lines, one line at its block indentation',
    'j.cases.yaml',
    peerCases('cut', ' strict', callsOverLines).replace(
      '          { name: book, args: { id: 4000,',
      '   { name: book, args: { id: 4000,',
    ),
    loadSpecs,
  ],
  [
    // One `!!int` tag in a valid 1 MB file sent it to the yaml Document until 2026-11-27 (2.4 s CPU).
    'cases YAML, 1 MB of cases, one answer tagged !!int',
    'i.cases.yaml',
    peerCases('tagged', ' strict').replace('equals: "Booked R100."', 'equals: !!int 100'),
    loadSpecs,
  ],
  [
    // Tags the yaml package only warns about: a local tag on a list of calls, and `!!int` on text its rule does not
    // take, which it keeps as text (the file went to the Document until 2026-11-27: 1.5-1.8 s CPU).
    'cases YAML, 1 MB of cases, a local tag on a list and !!int on text',
    'i.cases.yaml',
    peerCases('tagged', ' strict')
      .replace(
        'calls: [{ name: lookup, args: { id: 100 } }',
        'calls: !mine [{ name: lookup, args: { id: 100 } }',
      )
      .replace('equals: "Booked R200."', 'equals: !!int Booked'),
    loadSpecs,
  ],
  [
    // The fuzzer's: a run of `[` after a flow map on line after line, each an error token (15 s before reading stopped
    // at a thousand errors).
    'cases YAML, 1 MB of stray brackets after flow maps',
    'e.cases.yaml',
    `id: x\ncases:\n  - id: a\n    expect:\n      tools:\n${fill(MB, () => `        max_calls: { search: 2 }${'['.repeat(3000)}`, '\n')}\n`,
    loadSpecs,
  ],
  [
    'cases YAML, 1 MB of one duplicated key',
    'f.cases.yaml',
    `id: x\ncases:\n  - id: a\n    expect:\n      tools:\n${fill(MB, () => '        must_call: [open_file, edit_file, { name: run_tests, min: 2 }]', '\n')}\n`,
    loadSpecs,
  ],
  ['cases YAML, 300,000 nested "- "', 'c.cases.yaml', `cases:\n  ${'- '.repeat(300000)}x\n`, loadSpecs],
  [
    'trend history, 1 MB of null runs',
    'trend.json',
    `{"schema":2,"runs":[${fill(MB, () => 'null')}]}`,
    readHistory,
  ],
];

const filter = process.env.BENCH_INPUTS;
const dir = await mkdtemp(join(tmpdir(), 'needlework-inputs-bench-'));
let missed = 0;
try {
  for (const [label, name, text, load] of cases) {
    if (filter && !label.includes(filter)) continue;
    const file = join(dir, name);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, text);
    let parseMs = 0;
    try {
      const start = process.cpuUsage();
      JSON.parse(text);
      parseMs = cpuMs(start);
    } catch {
      // Not JSON (YAML, JSONL): no yardstick.
    }
    const start = process.cpuUsage();
    let outcome;
    try {
      const result = await load(file);
      // loadSpecs reports instead of throwing: one bad spec never stops the others.
      const errors = result?.errors ?? [];
      outcome = errors.length > 0 ? `${errors.length.toLocaleString()} diagnostics` : 'loaded';
    } catch (error) {
      if (error instanceof UserError)
        outcome = `UserError, ${error.diagnostics.length.toLocaleString()} diagnostics`;
      else outcome = `CRASH ${error?.name}: ${String(error?.message).slice(0, 80)}`;
    }
    const ms = cpuMs(start);
    const met = ms < TARGET_MS && !outcome.startsWith('CRASH');
    if (!met) missed++;
    console.log(
      `${label} (${(text.length / 1024).toFixed(0)} KB): ${ms.toFixed(0)} ms CPU, ${outcome}` +
        `${parseMs ? ` (JSON.parse alone ${parseMs.toFixed(0)} ms)` : ''}; target < 1 s, no crash: ${met ? 'met' : 'MISSED'}`,
    );
    await rm(file);
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
process.exitCode = missed > 0 ? 1 : 0;

function cpuMs(start) {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}
