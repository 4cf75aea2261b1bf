import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A PostgreSQL server started for the tests, on loopback, in a folder of its own. */
export interface TestServer {
  /** `postgres://needlework@127.0.0.1:<port>/postgres` */
  url: string;
  /** A URL to a new, empty database on the same server. */
  database(name: string): Promise<string>;
  stop(): Promise<void>;
}

/** The folder holding `initdb` and `pg_ctl`: on PATH, else Debian's /usr/lib/postgresql/<version>/bin; or why not. */
export function findPostgres(): { bin: string } | { missing: string } {
  for (const dir of (process.env.PATH ?? '').split(':'))
    if (dir && existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl'))) return { bin: dir };
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian))
    for (const version of readdirSync(debian).sort().reverse()) {
      const bin = join(debian, version, 'bin');
      if (existsSync(join(bin, 'initdb')) && existsSync(join(bin, 'pg_ctl'))) return { bin };
    }
  return {
    missing:
      'initdb and pg_ctl were not found on PATH or under /usr/lib/postgresql (install PostgreSQL 15: apt-get install postgresql)',
  };
}

/** A free TCP port on loopback. */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * Starts a PostgreSQL server in a temporary folder with `initdb` and `pg_ctl`, listening on a free loopback port,
 * trusting local connections (a test server, never a real one). PostgreSQL refuses to run as root, so as root it runs
 * as the `postgres` user (or `nobody`) through `runuser`.
 */
export async function startPostgres(bin: string): Promise<TestServer> {
  const dir = await mkdtemp(join(tmpdir(), 'needlework-pg-'));
  const data = join(dir, 'data');
  const root = userInfo().uid === 0;
  let user = '';
  if (root) {
    user = (await run('id', ['-u', 'postgres']).then(
      () => true,
      () => false,
    ))
      ? 'postgres'
      : 'nobody';
    const { stdout } = await run('id', ['-u', user]);
    const { stdout: gid } = await run('id', ['-g', user]);
    await chown(dir, Number(stdout.trim()), Number(gid.trim()));
  }
  const as = (command: string, args: string[]) =>
    root ? run('runuser', ['-u', user, '--', join(bin, command), ...args]) : run(join(bin, command), args);
  const port = await freePort();
  await as('initdb', ['-D', data, '-A', 'trust', '-U', 'needlework', '--no-sync', '-E', 'UTF8']);
  await as('pg_ctl', [
    '-D',
    data,
    '-l',
    join(dir, 'server.log'),
    '-w',
    '-o',
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=60`,
    'start',
  ]);
  const url = `postgres://needlework@127.0.0.1:${port}/postgres`;
  return {
    url,
    database: async (name) => {
      const { default: pg } = await import('pg');
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`CREATE DATABASE "${name}"`);
      await client.end();
      return `postgres://needlework@127.0.0.1:${port}/${name}`;
    },
    stop: async () => {
      await as('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
