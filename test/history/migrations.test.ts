import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { openEmbedded } from '../../src/history/store/embedded.js';
import { MIGRATIONS, SCHEMA_VERSION } from '../../src/history/store/migrations.js';
import { openStore } from '../../src/history/store/open.js';
import { openServer } from '../../src/history/store/server.js';
import type { SqlEngine } from '../../src/history/store/sql.js';
import { Store } from '../../src/history/store/store.js';
import { useTmpDir } from '../helpers/tmp.js';
import { trendCheck, trendRun } from '../reporters/trend-data.js';
import { eachEngine } from './engines.js';

const tmp = useTmpDir();

/** Makes the store an older needlework made: the migrations up to `version` only, recorded as it recorded them. */
async function atVersion(engine: SqlEngine, version: number): Promise<void> {
  await engine.exec(
    'CREATE TABLE needlework_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
  );
  for (const migration of MIGRATIONS.filter((m) => m.version <= version)) {
    await engine.exec(migration.sql);
    await engine.query('INSERT INTO needlework_migrations (version, name) VALUES ($1, $2)', [
      migration.version,
      migration.name,
    ]);
  }
}

eachEngine((engine, server) => {
  it('opens a store of schema 4 (before the index of checks by case), migrates it and reads its runs', async () => {
    const location =
      engine === 'embedded'
        ? join(await tmp(), 'store')
        : await server().database(`m_${randomBytes(4).toString('hex')}`);
    const old = engine === 'embedded' ? await openEmbedded(location) : await openServer(location);
    const run = trendRun(1, [
      trendCheck({ case: 'refund', task: 'refund-1', verdict: 'fail', state: 'failed' }),
      trendCheck({ workup: 'w-2' }),
    ]);
    try {
      await atVersion(old, 4);
      await new Store(old, 'old').append(run);
    } finally {
      await old.close();
    }
    const store = await openStore(location);
    try {
      const versions = await store.engine.query<{ version: number }>(
        'SELECT version FROM needlework_migrations ORDER BY version',
      );
      expect(versions.map((v) => v.version)).toEqual([1, 2, 3, 4, 5, 6]);
      expect(SCHEMA_VERSION).toBe(6);
      const indexes = await store.engine.query<{ def: string }>(
        "SELECT indexdef AS def FROM pg_indexes WHERE indexname LIKE 'needlework_checks_%' ORDER BY indexname",
      );
      expect(indexes.map((i) => i.def.replace(/^.* USING btree /, ''))).toEqual([
        '(spec, "case", COALESCE(task, workup), run)',
        `(spec, "case", COALESCE(task, workup), criterion, run) WHERE (verdict = 'fail'::text)`,
        '(run, ord)',
      ]);
      expect(await store.run(run.id)).toEqual(run);
      // The index answers for the checks the old needlework wrote.
      const [found] = await store.engine.query<{ n: number }>(
        `SELECT count(*)::integer AS n FROM needlework_checks
         WHERE spec = $1 AND "case" = $2 AND coalesce(task, workup) = $3`,
        [run.checks[0]?.spec, 'refund', 'refund-1'],
      );
      expect(found?.n).toBe(1);
    } finally {
      await store.close();
    }
  });
});
