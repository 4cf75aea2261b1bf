import { cp } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { findPostgres, startPostgres, type TestServer } from './postgres.js';

/**
 * Runs `suite` once per engine: the embedded store in a temporary folder, and a PostgreSQL server on loopback
 * started for these tests. Without `initdb` the server half is skipped, and its title says why; under CI (CI=true)
 * it fails instead, because CI must run the server tests.
 */
export function eachEngine(suite: (engine: 'embedded' | 'server', server: () => TestServer) => void): void {
  describe('embedded (PGlite)', () => suite('embedded', () => undefined as never));
  serverDescribe('server (PostgreSQL)', (server) => suite('server', server));
}

/** A describe block given a running server, skipped (or failed under CI) where PostgreSQL is not installed. */
export function serverDescribe(title: string, body: (server: () => TestServer) => void): void {
  const found = findPostgres();
  if ('missing' in found) {
    if (process.env.CI === 'true')
      describe(title, () => {
        it('needs a PostgreSQL server, and CI must run these tests', () => {
          throw new Error(`PostgreSQL server tests cannot run under CI: ${found.missing}`);
        });
      });
    else describe.skip(`${title}: skipped because ${found.missing}`, () => it('skipped'));
    return;
  }
  describe(title, () => {
    let server: TestServer | undefined;
    beforeAll(async () => {
      server = await startPostgres(found.bin);
    }, 60_000);
    afterAll(async () => {
      await server?.stop();
    });
    body(() => {
      if (!server) throw new Error('the PostgreSQL test server did not start');
      return server;
    });
  });
}

let template: Promise<string> | undefined;

/**
 * A new, empty embedded store folder at `dir`: a copy of one created (initdb and migrations) once per test file,
 * since PGlite's initdb costs seconds of CPU and every test wants a store of its own.
 */
export async function emptyEmbeddedStore(dir: string): Promise<string> {
  template ??= (async () => {
    const { mkdtemp } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { openStore } = await import('../../src/history/store/open.js');
    const location = join(await mkdtemp(join(tmpdir(), 'needlework-store-template-')), 'store');
    await (await openStore(location)).close();
    return location;
  })();
  await cp(await template, dir, { recursive: true });
  return dir;
}
