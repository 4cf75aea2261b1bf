import { resolve } from 'node:path';
import { UserError } from '../../errors/index.js';
import { findBaseline } from '../../history/gate.js';
import { resolveStore, storeName } from '../../history/store/open.js';
import { displayPath } from '../../io/display-path.js';
import { writeReportFile } from '../../io/report-file.js';
import { buildHtmlData, chartedTrend } from '../../report/html/data.js';
import { htmlPageChunks } from '../../report/html/page.js';
import { CHARTED_RUNS, gateOf } from '../../report/run-history.js';
import { storedRunChecks } from '../../report/stored-run.js';
import { openSharedSource } from '../../ui/door/client.js';
import type { Io } from '../io.js';

export interface ReportOptions {
  /** The run, by id; without it, the latest run of the store. */
  run?: string;
  /** The results store (`--store`), or a trend.json export; else `NEEDLEWORK_STORE`, else `.needlework/store`. */
  store?: string;
  /** Where to write the page. @default 'needlework-report/report.html' */
  out?: string;
  /** The project folder. @default process.cwd() */
  root?: string;
}

/**
 * Writes the static HTML report of a stored run (default: the latest): its checks, its comparison with its baseline
 * (the one every output of a run renders) and the trend of the store's last runs. Returns 0, or throws a `UserError`
 * naming the store when it holds no such run.
 */
export async function runReport(options: ReportOptions, io: Io): Promise<number> {
  const root = options.root ?? process.cwd();
  const location = resolveStore(options.store, root);
  const source = await openSharedSource(location, root);
  let page: AsyncIterable<string>;
  let title: string;
  try {
    const run = options.run !== undefined ? await source.run(options.run) : await source.latest();
    if (!run)
      throw new UserError({
        file: storeName(location),
        message:
          options.run !== undefined
            ? `no run ${options.run} in the results store`
            : 'the results store holds no runs',
      });
    const baseline = (await findBaseline(source, run)).run;
    const overview = await source.overview(CHARTED_RUNS);
    title = `needlework run ${run.id}`;
    const data = buildHtmlData({
      checks: storedRunChecks(run),
      title,
      now: new Date(run.time),
      ...(baseline && { gate: gateOf(run, baseline).text }),
    });
    page = htmlPageChunks(data, Promise.resolve(chartedTrend(overview)));
  } finally {
    await source.close();
  }
  const path = resolve(root, options.out ?? 'needlework-report/report.html');
  if (!(await writeReportFile(path, page))) return 1;
  io.out(
    `needlework: HTML report of ${title.replace('needlework run ', 'run ')} written to ${displayPath(path)}`,
  );
  return 0;
}
