import { resolve } from 'node:path';
import { UserError } from '../../errors/index.js';
import { compare } from '../../history/compare.js';
import { findBaseline } from '../../history/gate.js';
import { resolveStore, storeName } from '../../history/store/open.js';
import { Store } from '../../history/store/store.js';
import { displayPath } from '../../io/display-path.js';
import { writeReportFile } from '../../io/report-file.js';
import { CHARTED_RUNS } from '../../report/run-history.js';
import type { ReportInfo, WorkupAnswer } from '../../ui/client/types.js';
import { openSharedSource, storedWorkup } from '../../ui/door/client.js';
import { reportAnswers, reportHome, type WorkupRef } from '../../ui/report/answers.js';
import { htmlPageChunks } from '../../ui/report/page.js';
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
 * Writes the static HTML report of a stored run (default: the latest): the client of `needlework ui` over the run's
 * answers, inlined: its checks, its comparison with its baseline (the one every output of a run renders), its trials,
 * each of its workups read as the UI reads it (from a store that keeps their paths) and the trend of the store's last
 * runs up to it. Returns 0, or throws a `UserError` naming the store when it holds no such run.
 */
export async function runReport(options: ReportOptions, io: Io): Promise<number> {
  const root = options.root ?? process.cwd();
  const location = resolveStore(options.store, root);
  const source = await openSharedSource(location, root);
  const path = resolve(root, options.out ?? 'needlework-report/report.html');
  let written: boolean;
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
    title = `needlework run ${run.id}`;
    const info: ReportInfo = {
      run: run.id,
      title,
      generatedAt: new Date().toISOString(),
      home: reportHome(run),
    };
    const answers = reportAnswers({
      run,
      ...(baseline && { compared: { baseline, comparison: compare(run, baseline) } }),
      trend: source.overview(CHARTED_RUNS),
      ...(source instanceof Store && { workup: storedWorkupAnswer(source, run.id) }),
    });
    // Written while the source is open: the trend and the workups are read from it as the page is written.
    written = await writeReportFile(path, htmlPageChunks(info, answers));
  } finally {
    await source.close();
  }
  if (!written) return 1;
  io.out(
    `needlework: HTML report of ${title.replace('needlework run ', 'run ')} written to ${displayPath(path)}`,
  );
  return 0;
}

/** A workup of a stored run as `needlework ui` answers it: read from the file its stored checks name. */
function storedWorkupAnswer(
  store: Store,
  runId: string,
): (ref: WorkupRef) => Promise<WorkupAnswer | undefined> {
  return async (ref) => {
    const found = await storedWorkup(store, runId, ref.workup, String(ref.file));
    return found.status === 200 ? (found.body as WorkupAnswer) : undefined;
  };
}
