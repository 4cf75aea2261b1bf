// One JUnit file written from a run's check records (junit-capture.mjs), in a fresh process so that its code is as
// cold as after a real run's last test, as the JUnit reporter writes it:
// `node junit-write.mjs <dist> <records> <out> <when>`, with the build in `dist` (this checkout's, or another's to
// compare with), `when` = `end` (every test case written after the last test, as a merged run still is) or `ahead`
// (each test case written as its test ends, JUnitCases; the rest after the last test). Prints JSON: the main thread's
// busy time for the cases written ahead and for the rest, in ms (event-loop active time, so the disk's own time is not
// counted), and the wall time of the rest.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';

const [dist, records, out, when] = process.argv.slice(2);
const load = (path) => import(pathToFileURL(join(resolve(dist), path)).href);
const { projectPath } = await load('src/io/display-path.js');
const { writeReportFile } = await load('src/io/report-file.js');
const junit = await load('src/report/junit/build.js');
const { recordTrialStatistics } = await load('src/report/trials.js');
const { root, checks } = JSON.parse(readFileSync(records, 'utf8'));
// Shared with the HTML report, and computed by whichever reporter asks first: not the JUnit file's own cost.
recordTrialStatistics(checks);
// As the reporter points a YAML-spec test at its assertion in the spec file.
const paths = new Map();
const sourceOf = (check) => {
  const meta = check.meta;
  if (!meta?.specFile || meta.specKind === 'matcher') return undefined;
  if (!paths.has(meta.specFile)) paths.set(meta.specFile, projectPath(root, meta.specFile));
  return { file: paths.get(meta.specFile), line: meta.place?.line ?? 1 };
};
const options = { name: 'needlework', dialect: 'ci', sourceOf, timestamp: new Date(0) };
let aheadMs = null;
if (when === 'ahead') {
  if (!junit.JUnitCases) throw new Error('this build writes no test case ahead of the file');
  const cases = new junit.JUnitCases('ci', sourceOf);
  const before = performance.eventLoopUtilization();
  for (const check of checks) cases.add(check);
  aheadMs = performance.eventLoopUtilization(before).active;
  options.cases = cases;
  // By a run's end its cases' texts are long made, moved out of the young generation while the tests ran: not here.
  globalThis.gc?.();
}
// The reporter's end: after the last test, nothing of the file's code has run yet in this process.
const before = performance.eventLoopUtilization();
const started = performance.now();
await writeReportFile(out, junit.junitXmlChunks(checks, options));
const wallMs = performance.now() - started;
console.log(JSON.stringify({ aheadMs, endMs: performance.eventLoopUtilization(before).active, wallMs }));
