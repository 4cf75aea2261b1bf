// Note parsing by kind of markup: for each kind (plain, links, code spans, emphasis, inline HTML, images, tables,
// nested lists, a mix of all, and reference links to the link definitions the note ends with), 1,000 generated 30-claim
// notes parsed by parseNote and by the parser it replaced (test/reference/parse-note-v1.ts, as at commit e2889b5,
// loaded by ./parse-note-v1.mjs), in the same process, taking turns on a collected heap (as bench/score.bench.mjs
// does), both required to give the same notes. With BENCH_NOTE_BEFORE=<path to another build's dist/src/note/parse.js>,
// that parser is timed in the same turns too (the "before" column of a change). Then the hostile notes of issue 25
// (test/note/fixtures/hostile, up to 1 MB each), each parsed and linted once in CPU time against the 1 s bound.
// Targets (issue 24, part 4): parseNote at least 10x the baseline on every kind, same output; (issue 25) no hostile
// note over 1 s CPU, none crashing but the one refused with our own error.

import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { isDeepStrictEqual } from 'node:util';
import { lintEstimativeLanguage } from '../dist/src/metrics/index.js';
import { parseNote } from '../dist/src/note/parse.js';
import { BLOCK_KINDS, blockify, DEFINITIONS, lead, markup, NAMES, table } from './note-markup.mjs';
import { parseNoteV1 } from './parse-note-v1.mjs';

const N = Number(process.env.BENCH_N ?? 1_000);
const CHUNK = 250;
const before = process.env.BENCH_NOTE_BEFORE
  ? (await import(process.env.BENCH_NOTE_BEFORE)).parseNote
  : undefined;

let seed = 11;
const rand = () => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed / 2 ** 31;
};
const pick = (list) => list[Math.floor(rand() * list.length)];

const ENTITIES = NAMES;
const PHRASES = [
  'is likely linked to',
  'might be tied to',
  'almost certainly met',
  'is connected to',
  'works for',
];

function bullet(kind, depth = 0) {
  const cite = `[cite:g${1 + Math.floor(rand() * 50)}]`;
  const a = pick(ENTITIES);
  const b = pick(ENTITIES);
  return `${'  '.repeat(depth)}- ${lead(kind, rand)}${a} ${pick(PHRASES)} ${b}${markup(kind, rand)}. ${cite}`;
}

function note(kind) {
  const findings = [];
  if (kind === 'tables') {
    findings.push(...table(14, rand), '', ...Array.from({ length: 13 }, () => bullet('plain')));
  } else if (kind === 'nested lists') {
    let depth = 0;
    for (let i = 0; i < 27; i++) {
      depth = i === 0 ? 0 : Math.max(0, Math.min(depth + pick([-1, 0, 1, 1]), 4));
      findings.push(bullet('plain', depth));
    }
  } else if (kind === 'mix') {
    findings.push(...table(4, rand), '');
    let depth = 0;
    for (let i = 0; i < 23; i++) {
      depth = i === 0 ? 0 : Math.max(0, Math.min(depth + pick([-1, 0, 0, 1]), 2));
      findings.push(bullet('mix', depth));
    }
  } else if (BLOCK_KINDS.includes(kind)) {
    findings.push(...Array.from({ length: 27 }, () => bullet('plain')));
  } else {
    findings.push(...Array.from({ length: 27 }, () => bullet(kind)));
  }
  const lines = [
    '# Workup: Halberd and Wren',
    '',
    '## Summary',
    '',
    'Halberd and Wren are linked through Compound-Alpha; Wren works for Marrow Logistics. [cite:g6,g18]',
    '',
    '## Findings',
    '',
    ...findings,
    '',
    '## Gaps & caveats',
    '',
    '- The document store may be out of date.',
    '',
    ...(kind === 'references' ? [...DEFINITIONS, ''] : []),
  ];
  return BLOCK_KINDS.includes(kind) ? blockify(kind, lines) : lines.join('\n');
}

const KINDS = [
  ...['plain', 'links', 'code', 'emphasis', 'html', 'images', 'tables', 'nested lists', 'mix', 'references'],
  ...BLOCK_KINDS,
];
const cpuNow = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
const fmt = (x, digits = 1) =>
  x.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

console.log(
  `${fmt(N, 0)} notes of each kind, 30 claims each; CPU µs per note (a collected heap before each parser, turns alternating)`,
);
console.log(
  `  ${'kind'.padEnd(15)} ${'e2889b5'.padStart(9)} ${before ? 'before'.padStart(9) : ''} ${'parseNote'.padStart(9)}  speed-up${before ? ' (before)' : ''}  identical`,
);
// Warm up: every parser compiled on every kind before any is timed, so that the first kind does not pay for it.
for (const kind of KINDS) {
  for (let k = 0; k < 50; k++) {
    const source = note(kind);
    parseNoteV1(source);
    before?.(source);
    parseNote(source);
  }
}
let ok = true;
for (const kind of KINDS) {
  const cpu = { v1: 0, before: 0, now: 0 };
  let same = 0;
  for (let start = 0; start < N; start += CHUNK) {
    const batch = Array.from({ length: Math.min(CHUNK, N - start) }, () => note(kind));
    const run = (parser, key) => {
      globalThis.gc?.();
      const c = cpuNow();
      const parsed = batch.map((source) => parser(source));
      cpu[key] += cpuNow() - c;
      return parsed;
    };
    const order = (start / CHUNK) % 2 === 0;
    const old = order ? run(parseNoteV1, 'v1') : undefined;
    if (before) run(before, 'before');
    const notes = run(parseNote, 'now');
    const oldNotes = old ?? run(parseNoteV1, 'v1');
    notes.forEach((n, k) => {
      if (isDeepStrictEqual(n, oldNotes[k])) same++;
    });
  }
  const speedup = cpu.v1 / cpu.now;
  const met = speedup >= 10 && same === N;
  if (!met) ok = false;
  console.log(
    `  ${kind.padEnd(15)} ${fmt((cpu.v1 * 1e6) / N).padStart(9)} ${before ? fmt((cpu.before * 1e6) / N).padStart(9) : ''} ${fmt((cpu.now * 1e6) / N).padStart(9)}  ${`${fmt(speedup)}x`.padStart(7)}${before ? ` (${fmt(cpu.v1 / cpu.before)}x)`.padStart(9) : ''}  ${fmt(same, 0)}/${fmt(N, 0)}${met ? '' : '  MISSED'}`,
  );
}

// Each block kind (and a note with a link definition, which the full parser read until the block parser read
// definitions) at 1 MB, parsed once in CPU time against the 1 s bound, with the e2889b5 parser on 100 KB of it for the ratio (at 1 MB it would take minutes:
// micromark is quadratic on nested markers).
console.log('1 MB notes of each block kind, CPU (parseNote at 1 MB; e2889b5 at 100 KB):');
console.log(`  ${'kind'.padEnd(32)} ${'ms/100 KB'.padStart(9)} ${'e2889b5'.padStart(9)}  speed-up   1 MB`);
const cpuOf = (parser, source) => {
  globalThis.gc?.();
  const c = cpuNow();
  parser(source);
  return cpuNow() - c;
};
const DEFINED = 'a link definition';
for (const kind of [...BLOCK_KINDS, DEFINED]) {
  // A whole number of notes, so that the last one is not cut inside a construct.
  const one =
    kind === DEFINED
      ? `${note('plain')}\n[g1]: https://example.com/g1\n\n`
      : `${note(kind)}${kind === 'CRLF' ? '\r\n' : '\n'}`;
  const big = one.repeat(Math.max(1, Math.round(1e6 / one.length)));
  const small = one.repeat(Math.max(1, Math.round(1e5 / one.length)));
  const now = cpuOf(parseNote, big);
  const v1 = cpuOf(parseNoteV1, small);
  const per100 = (now * 1e5) / big.length;
  const speedup = v1 / small.length / (now / big.length);
  const met = now * (1e6 / big.length) <= 1;
  if (!met) ok = false;
  console.log(
    `  ${kind.padEnd(32)} ${fmt(per100 * 1e3).padStart(9)} ${fmt(((v1 * 1e5) / small.length) * 1e3).padStart(9)}  ${`${fmt(speedup)}x`.padStart(8)}  ${fmt(now, 2)} s${met ? '' : '  MISSED'}`,
  );
}

const DIR = new URL('../test/note/fixtures/hostile/', import.meta.url);
console.log('hostile notes (test/note/fixtures/hostile), CPU seconds to parse + lint:');
for (const file of readdirSync(DIR).sort()) {
  const r = JSON.parse(readFileSync(new URL(file, DIR), 'utf8'));
  const source = r.before + r.repeat.repeat(r.times) + r.after;
  const c = cpuNow();
  let outcome;
  try {
    lintEstimativeLanguage(parseNote(source));
    outcome = 'parsed';
  } catch (error) {
    outcome = error?.name === 'UserError' ? 'refused (UserError)' : `CRASHED: ${error}`;
  }
  const seconds = cpuNow() - c;
  const met = seconds <= 1 && !outcome.startsWith('CRASHED');
  if (!met) ok = false;
  console.log(
    `  ${file.replace(/\.json$/, '').padEnd(44)} ${fmt(source.length / 1e6, 2)} M chars  ${fmt(seconds, 2)} s  ${outcome}${met ? '' : '  MISSED'}`,
  );
}
console.log(
  `  machine load average ${os.loadavg()[0].toFixed(1)} on ${os.availableParallelism()} cores; targets: >= 10x on every kind with identical notes, every hostile note <= 1 s: ${ok ? 'met' : 'MISSED'}`,
);
if (!ok) process.exitCode = 1;
