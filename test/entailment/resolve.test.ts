import { readFile, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { OnnxNliVerifier } from '../../src/entailment/onnx/verifier.js';
import { resolveModel } from '../../src/entailment/resolve.js';
import { UserError } from '../../src/errors/index.js';
import { useTmpDir } from '../helpers/tmp.js';
import { cuttingFetch, type FakeHub, type FakeHubOptions, startFakeHub } from './helpers/fake-hub.js';
import { writeTinyModel } from './helpers/tiny-model.mjs';

const tmp = useTmpDir();
const hubs: FakeHub[] = [];
afterEach(async () => {
  await Promise.all(hubs.splice(0).map((h) => h.close()));
});

const MODEL = 'onnx/model.onnx';

async function hub(options: Partial<FakeHubOptions> = {}) {
  const root = await tmp();
  const source = await writeTinyModel(join(root, 'source'), { layout: 'onnx', layers: 2, hidden: 64 });
  const server = await startFakeHub({ repo: 'acme/tiny-nli', dir: source, lfs: [MODEL], ...options });
  hubs.push(server);
  const env = { HF_ENDPOINT: server.endpoint, XDG_CACHE_HOME: join(root, 'xdg') };
  return {
    root,
    source,
    server,
    env,
    dest: join(root, 'xdg', 'needlework', 'models', 'acme', 'tiny-nli', 'main'),
  };
}

const modelRequests = (server: FakeHub) =>
  server.requests.filter((r) => r.path.endsWith(`/resolve/main/${MODEL}`));

describe('resolveModel', () => {
  it('is undefined when no model is named anywhere, so entailment stays off by default', async () => {
    expect(await resolveModel(undefined, { env: {} })).toBeUndefined();
  });

  it('takes a folder from the argument, else from NEEDLEWORK_NLI_MODEL', async () => {
    expect(await resolveModel('/models/a', { env: { NEEDLEWORK_NLI_MODEL: '/models/b' } })).toBe('/models/a');
    expect(await resolveModel(undefined, { env: { NEEDLEWORK_NLI_MODEL: '/models/b' } })).toBe('/models/b');
  });

  it('refuses a malformed hf: reference', async () => {
    await expect(resolveModel('hf:no-slash', { env: {} })).rejects.toThrow(
      new UserError({
        file: 'hf:no-slash',
        message: 'expected hf:<owner>/<name> or hf:<owner>/<name>@<revision>',
      }),
    );
  });

  it('downloads the export layout from HF_ENDPOINT into the user cache folder, verified, and loads it', async () => {
    const { source, server, env, dest } = await hub();
    const dir = await resolveModel('hf:acme/tiny-nli', { env });
    expect(dir).toBe(dest);
    for (const file of [MODEL, 'config.json', 'tokenizer.json', 'tokenizer_config.json']) {
      expect(await readFile(join(dest, file))).toEqual(await readFile(join(source, file)));
    }
    // The layout's own files only: the root model.onnx candidate is absent, and nothing else is fetched.
    const fetched = server.requests
      .filter((r) => r.path.includes('/resolve/'))
      .map((r) => r.path.split('/main/')[1]);
    expect(fetched.sort()).toEqual(['config.json', MODEL, 'tokenizer.json', 'tokenizer_config.json']);
    const [score] = await new OnnxNliVerifier(dir!, { cache: false }).score([
      { premise: 'yes', hypothesis: 'cat' },
    ]);
    expect(score).toBeGreaterThan(0.5);

    // A second resolution trusts the verified folder and downloads nothing.
    const before = server.requests.length;
    expect(await resolveModel(undefined, { env: { ...env, NEEDLEWORK_NLI_MODEL: 'hf:acme/tiny-nli' } })).toBe(
      dest,
    );
    expect(server.requests.slice(before).every((r) => r.path.startsWith('/api/'))).toBe(true);
  });

  it('resumes a download cut mid-file with an HTTP Range request', async () => {
    const { source, server, env, dest } = await hub({ stallOnce: MODEL });
    await resolveModel('hf:acme/tiny-nli', { env, fetch: cuttingFetch(MODEL) });
    const size = (await stat(join(source, MODEL))).size;
    const requests = modelRequests(server);
    expect(requests).toHaveLength(2);
    expect(requests[0]!.range).toBeUndefined();
    expect(requests[1]!.range).toBe(`bytes=${Math.floor(size / 2)}-`);
    expect(await readFile(join(dest, MODEL))).toEqual(await readFile(join(source, MODEL)));
  });

  it('keeps the bytes of a broken download for the next run, which resumes them', async () => {
    const { source, server, env, dest } = await hub({ stallOnce: MODEL });
    const half = Math.floor((await stat(join(source, MODEL))).size / 2);
    const error = await resolveModel('hf:acme/tiny-nli', {
      env,
      retries: 0,
      fetch: cuttingFetch(MODEL),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UserError);
    expect((error as Error).message).toMatch(
      new RegExp(
        `/resolve/main/onnx/model\\.onnx: download interrupted after ${half} bytes \\(other side closed\\); run again to resume it$`,
      ),
    );
    await expect(stat(join(dest, MODEL))).rejects.toThrow();
    expect((await stat(join(dest, `${MODEL}.part`))).size).toBe(half);

    await resolveModel('hf:acme/tiny-nli', { env, retries: 0 });
    expect(modelRequests(server).map((r) => r.range)).toEqual([undefined, `bytes=${half}-`]);
    expect(await readFile(join(dest, MODEL))).toEqual(await readFile(join(source, MODEL)));
  });

  it('refuses a file whose sha256 is not the one the Hub gives, and keeps nothing of it', async () => {
    const wrong = 'f'.repeat(64);
    const { server, env, dest } = await hub({ wrongSha256: wrong });
    const error = await resolveModel('hf:acme/tiny-nli', { env }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UserError);
    expect((error as Error).message).toMatch(
      new RegExp(
        `^${server.endpoint}/acme/tiny-nli/resolve/main/onnx/model\\.onnx: sha256 mismatch: expected ${wrong}, received [0-9a-f]{64}; the file was discarded$`,
      ),
    );
    await expect(stat(join(dest, MODEL))).rejects.toThrow();
    await expect(stat(join(dest, `${MODEL}.part`))).rejects.toThrow();
  });

  it('without the Hub API, tries the layout file by file and checks the LFS etag it is served', async () => {
    const { source, server, env, dest } = await hub({ apiStatus: 500 });
    expect(await resolveModel('hf:acme/tiny-nli', { env })).toBe(dest);
    expect(await readFile(join(dest, MODEL))).toEqual(await readFile(join(source, MODEL)));
    // model.onnx at the top is tried first and is absent in this export.
    expect(server.requests.some((r) => r.path.endsWith('/resolve/main/model.onnx'))).toBe(true);

    const { env: env2 } = await hub({ apiStatus: 500, wrongSha256: '0'.repeat(64) });
    await expect(resolveModel('hf:acme/tiny-nli', { env: env2 })).rejects.toThrow(/sha256 mismatch/);
  });

  it('says the Hub cannot be reached when nothing answers at HF_ENDPOINT', async () => {
    // A loopback port that was just free: refused at once, nothing leaves the machine.
    const probe = createServer();
    await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done));
    const { port } = probe.address() as AddressInfo;
    await new Promise((done) => probe.close(done));
    const env = { HF_ENDPOINT: `http://127.0.0.1:${port}`, XDG_CACHE_HOME: await tmp() };
    await expect(resolveModel('hf:acme/tiny-nli', { env, retries: 0 })).rejects.toThrow(
      `http://127.0.0.1:${port}/acme/tiny-nli/resolve/main/config.json: cannot download (connect ECONNREFUSED 127.0.0.1:${port}): check the network, or HF_ENDPOINT for a mirror`,
    );
  });

  it('names a repository the Hub does not have', async () => {
    const { server, env } = await hub();
    await expect(resolveModel('hf:acme/other', { env })).rejects.toThrow(
      `${server.endpoint}/acme/other: no such model repository or revision "main" (HTTP 404; a gated or private repository needs its files downloaded by hand)`,
    );
  });

  it('draws a progress bar on a terminal, and none elsewhere', async () => {
    const { env } = await hub();
    const drawn: string[] = [];
    await resolveModel('hf:acme/tiny-nli', {
      env,
      progress: { isTTY: true, write: (t: string) => drawn.push(t) },
    });
    expect(drawn.join('')).toContain('acme/tiny-nli onnx/model.onnx');
    expect(drawn.join('')).toContain('100%');

    const { env: env2 } = await hub();
    const piped: string[] = [];
    await resolveModel('hf:acme/tiny-nli', {
      env: env2,
      progress: { isTTY: false, write: (t: string) => piped.push(t) },
    });
    expect(piped).toEqual([]);
  });
});
