import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DoorFile } from '../../src/ui/door/protocol.js';
import type { UiServer } from '../../src/ui/server.js';
import { useTmpDir } from '../helpers/tmp.js';
import { ask, serveHistory } from './serve.js';

const tmp = useTmpDir();
let ui: UiServer | undefined;
afterEach(async () => {
  await ui?.close();
  ui = undefined;
});

async function started(): Promise<{ ui: UiServer; base: string; host: string; dir: string }> {
  const dir = await tmp();
  ui = await serveHistory(dir);
  const base = ui.url.replace(/\/$/, '');
  return { ui, base, host: new URL(ui.url).host, dir };
}

describe('needlework ui refuses what is not its own', () => {
  it('binds 127.0.0.1 by default and serves its own Host, by address and by localhost', async () => {
    const { base, host } = await started();
    expect(new URL(base).hostname).toBe('127.0.0.1');
    expect((await ask(`${base}/api/info`)).status).toBe(200);
    const port = host.split(':')[1];
    expect((await ask(`${base}/api/info`, { headers: { host: `localhost:${port}` } })).status).toBe(200);
  });

  it('refuses a Host that is not its own (DNS rebinding), on every path', async () => {
    const { base, host } = await started();
    const port = host.split(':')[1];
    for (const path of ['/api/info', '/api/runs', '/', '/assets/needlework.js', '/door/count'])
      for (const evil of [
        `evil.example:${port}`,
        'evil.example',
        `127.0.0.1:${Number(port) + 1}`,
        'localhost',
      ]) {
        const answer = await ask(`${base}${path}`, { headers: { host: evil } });
        expect(answer.status, `${path} with Host ${evil}`).toBe(403);
        expect(answer.body).toMatch(/^refused: the Host/);
      }
  });

  it('refuses a cross-site Origin, a null Origin and a cross-site fetch, and serves its own Origin', async () => {
    const { base } = await started();
    for (const origin of [
      'http://evil.example',
      'null',
      'https://127.0.0.1',
      `${base.replace('127.0.0.1', 'evil.example')}`,
    ]) {
      const answer = await ask(`${base}/api/runs`, { headers: { origin } });
      expect(answer.status, origin).toBe(403);
      expect(answer.body).toContain('refused: the Origin');
    }
    for (const site of ['cross-site', 'same-site']) {
      const answer = await ask(`${base}/api/runs`, { headers: { 'sec-fetch-site': site } });
      expect(answer.status, site).toBe(403);
    }
    const own = await ask(`${base}/api/runs`, { headers: { origin: base, 'sec-fetch-site': 'same-origin' } });
    expect(own.status).toBe(200);
  });

  it('sends no CORS header, and a Content-Security-Policy that allows only its own scripts', async () => {
    const { base } = await started();
    for (const path of ['/', '/api/runs', '/api/info', '/assets/needlework.js']) {
      const answer = await ask(`${base}${path}`, { headers: { origin: base } });
      expect(Object.keys(answer.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
      expect(answer.headers['content-security-policy']).toContain("script-src 'self'");
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
    }
    const preflight = await ask(`${base}/api/runs`, {
      method: 'OPTIONS',
      headers: { origin: 'http://evil.example' },
    });
    expect(preflight.status).toBe(403);
  });

  it('only reads: every method but GET and HEAD is refused outside the door', async () => {
    const { base } = await started();
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      const answer = await ask(`${base}/api/runs`, { method, body: '{}' });
      expect(answer.status, method).toBe(405);
    }
  });

  it('opens its door only with the token from the door file, which only its owner can read', async () => {
    const { base, dir } = await started();
    const doorFile = join(dir, 'store.ui.json');
    expect((await stat(doorFile)).mode & 0o777).toBe(0o600);
    const door = JSON.parse(await readFile(doorFile, 'utf8')) as DoorFile;
    expect(door.url).toBe(base);
    const body = JSON.stringify({});
    expect((await ask(`${base}/door/count`, { method: 'POST', body })).status).toBe(403);
    const wrong = await ask(`${base}/door/count`, {
      method: 'POST',
      body,
      headers: { authorization: `Bearer ${'0'.repeat(64)}` },
    });
    expect(wrong.status).toBe(403);
    expect(
      (await ask(`${base}/door/count`, { headers: { authorization: `Bearer ${door.token}` } })).status,
    ).toBe(403);
    const right = await ask(`${base}/door/count`, {
      method: 'POST',
      body,
      headers: { authorization: `Bearer ${door.token}` },
    });
    expect(right.status).toBe(200);
    expect(JSON.parse(right.body)).toBe(6);
    // A page of the UI cannot use the door either: its token is nowhere in what the UI serves.
    for (const path of ['/', '/api/info'])
      expect((await ask(`${base}${path}`)).body).not.toContain(door.token);
  });

  it('serves no file outside its client folder', async () => {
    const { base } = await started();
    for (const path of [
      '/assets/../../package.json',
      '/assets/%2e%2e/%2e%2e/%2e%2e/package.json',
      '/assets/..%2f..%2f..%2f..%2fpackage.json',
      '/assets/..%2fserver.js',
    ]) {
      const answer = await ask(`${base}${path}`);
      expect(answer.body, path).not.toContain('"name": "needlework"');
      expect(answer.body, path).not.toContain('startUi');
    }
    expect((await ask(`${base}/assets/..%2f..%2f..%2f..%2fpackage.json`)).status).toBe(404);
  });
});
