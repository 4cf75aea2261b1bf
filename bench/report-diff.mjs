// Whether two HTML reports hold the same answers: `node bench/report-diff.mjs a.html b.html` decodes each page's
// answers (the segments' gzip and base64, each answer where the index says) and compares the index, each answer (deep)
// and the segments' text; exits 1 when they differ, naming the first differences. For two runs of one project (a
// build before and after a change, each in a copy of the project and its store): the run's id, its end time and its
// label on the trend's axis differ from run to run, and are put out of the way first (placeholders of the same length,
// so the index's places still hold). What the page says of itself is compared without its `generatedAt`.
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { gunzipSync } from 'node:zlib';

const block = (html, id) =>
  new RegExp(`<script type="[^"]+" id="${id}">([^<]*)</script>`).exec(html)?.[1] ??
  fail(`not a needlework report: no ${id}`);

function fail(message) {
  console.error(message);
  process.exit(2);
}

function decode(file) {
  const html = readFileSync(file, 'utf8');
  const { generatedAt: _, ...info } = JSON.parse(block(html, 'needlework-report'));
  const run = info.run;
  const index = JSON.parse(block(html, 'needlework-index'));
  const segments = [];
  for (const m of html.matchAll(/id="needlework-answers-(\d+)">([^<]*)</g))
    segments[Number(m[1])] = gunzipSync(Buffer.from(m[2], 'base64')).toString('utf8');
  // The run's own row names its end time; its label on the trend's axis is made from it (UTC, as the client shows).
  const time = /"time":"([^"]+)"/.exec(segments[0] ?? '')?.[1];
  const out = (text) => {
    let s = text.replaceAll(run, 'R'.repeat(run.length));
    s = s.replaceAll(encodeURIComponent(run), 'R'.repeat(encodeURIComponent(run).length));
    if (!time) return s;
    const t = new Date(time);
    const two = (n) => String(n).padStart(2, '0');
    const label = `${two(t.getMonth() + 1)}-${two(t.getDate())} ${two(t.getHours())}:${two(t.getMinutes())}`;
    return s
      .replaceAll(time, 'T'.repeat(time.length))
      .replaceAll(`"${label}"`, `"${'L'.repeat(label.length)}"`);
  };
  for (let i = 0; i < segments.length; i++) segments[i] = out(segments[i]);
  for (const row of index) row[0] = out(row[0]);
  const answers = new Map();
  let covered = 0;
  for (const [path, n, from, to] of index) {
    answers.set(path, JSON.parse(segments[n].slice(from, to)));
    covered += to - from;
  }
  const total = segments.reduce((sum, s) => sum + s.length, 0);
  if (covered !== total) fail(`${file}: its answers cover ${covered} of its ${total} characters of text`);
  return { info: JSON.parse(out(JSON.stringify(info))), index, segments, answers, total };
}

/** Where two values first differ, as a path into them. */
function firstDifference(a, b, at = '') {
  if (isDeepStrictEqual(a, b)) return undefined;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null)
    return `${at || '.'}: ${JSON.stringify(a)?.slice(0, 160)} against ${JSON.stringify(b)?.slice(0, 160)}`;
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const found = firstDifference(a[key], b[key], `${at}.${key}`);
    if (found) return found;
  }
  return `${at || '.'}: alike, keys in another order`;
}

const [fileA, fileB] = process.argv.slice(2);
if (!fileA || !fileB) fail('usage: node bench/report-diff.mjs a.html b.html');
const a = decode(fileA);
const b = decode(fileB);
const differences = [];
if (!isDeepStrictEqual(a.info, b.info))
  differences.push(`what the page says of itself: ${firstDifference(a.info, b.info)}`);
if (!isDeepStrictEqual(a.index, b.index)) differences.push('the index (paths, segments, places)');
for (const [path, answer] of a.answers) {
  if (!b.answers.has(path)) differences.push(`${path}: only in ${fileA}`);
  else if (!isDeepStrictEqual(answer, b.answers.get(path)))
    differences.push(`${path}: ${firstDifference(answer, b.answers.get(path))}`);
}
for (const path of b.answers.keys()) if (!a.answers.has(path)) differences.push(`${path}: only in ${fileB}`);
if (a.segments.join('\n') !== b.segments.join('\n')) differences.push("the segments' text");
console.log(
  `${a.answers.size.toLocaleString('en')} answers in ${a.segments.length} segments, ${(a.total / 1e6).toFixed(1)} M characters of JSON`,
);
if (differences.length === 0) console.log('the same: index, answers and text');
else {
  for (const d of differences.slice(0, 10)) console.log(`differs: ${d}`);
  if (differences.length > 10) console.log(`... and ${differences.length - 10} more`);
  process.exitCode = 1;
}
