// A Vitest reporter for the benchmarks: writes the run's check records (what every needlework reporter reads, as
// collectChecks hands them over) as JSON to $NEEDLEWORK_BENCH_RECORDS, with the project root they are relative to.
import { writeFileSync } from 'node:fs';
import { collectChecks, recordTestLocations } from '../../dist/src/report/collect.js';

export default class CaptureChecks {
  onInit(vitest) {
    this.root = vitest.config.root;
    recordTestLocations(vitest);
  }

  onTestRunEnd(testModules) {
    const checks = collectChecks(testModules, this.root);
    writeFileSync(process.env.NEEDLEWORK_BENCH_RECORDS, JSON.stringify({ root: this.root, checks }));
  }
}
