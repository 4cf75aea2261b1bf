import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TestModule } from 'vitest/node';
import { NeedleworkHtmlReporter } from '../../reporters/html.js';
import { NeedleworkJUnitReporter } from '../../reporters/junit.js';
import { NeedleworkOtelReporter } from '../../reporters/otel.js';
import { useTmpDir } from '../helpers/tmp.js';

const tmp = useTmpDir();

describe('the end of a run', () => {
  // Vitest calls every reporter's onTestRunEnd in the order of the reporters, each running until its first await. The
  // default order puts the trend reporter last: if the others built their reports first, its store's thread would
  // idle through them (at 10,000 cases, 0.5-0.9 s of checks collected, trials counted and suites grouped).
  it('reads no result in the JUnit, HTML and OTel reporters before a reporter listed after them has begun', async () => {
    const dir = await tmp();
    const reporters = {
      junit: new NeedleworkJUnitReporter({ outputFile: join(dir, 'junit.xml'), store: false }),
      html: new NeedleworkHtmlReporter({ outputFile: join(dir, 'report.html'), store: false }),
      otel: new NeedleworkOtelReporter({ outputFile: join(dir, 'otel.json') }),
    };
    for (const [name, reporter] of Object.entries(reporters)) {
      const read: string[] = [];
      const modules = new Proxy([] as TestModule[], {
        get(target, key, receiver) {
          read.push(String(key));
          return Reflect.get(target, key, receiver);
        },
      });
      const ending = reporter.onTestRunEnd(modules);
      expect(read, name).toEqual([]);
      await ending;
      expect(read.length, name).toBeGreaterThan(0);
    }
  });
});
