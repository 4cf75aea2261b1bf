import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { UserError } from '../../errors/index.js';
import { writeFileAtomic } from '../../io/atomic.js';
import { modelCandidates } from '../onnx/export-folder.js';
import { downloadFile, type Expected } from './download.js';
import type { ProgressStream } from './progress.js';

export const DEFAULT_HF_ENDPOINT = 'https://huggingface.co';

/** `hf:<owner>/<name>[@revision]`, parsed. */
export interface HubRef {
  repo: string;
  revision: string;
}

export function parseHubRef(spec: string): HubRef {
  const body = spec.slice('hf:'.length);
  const at = body.indexOf('@');
  const repo = at < 0 ? body : body.slice(0, at);
  const revision = at < 0 ? 'main' : body.slice(at + 1);
  if (!/^[\w.-]+\/[\w.-]+$/.test(repo) || revision === '' || repo.includes('..')) {
    throw new UserError({
      file: spec,
      message: 'expected hf:<owner>/<name> or hf:<owner>/<name>@<revision>',
    });
  }
  return { repo, revision };
}

export interface HubDownloadOptions {
  /** The Hub to download from (`HF_ENDPOINT`). */
  endpoint: string;
  /** The folder the export is written to. */
  dest: string;
  quantized?: boolean;
  progress?: ProgressStream;
  retries?: number;
  fetch?: typeof fetch;
}

/** The files of the layout needlework needs, each with what it must be when the Hub said. */
interface Wanted {
  file: string;
  expected: Expected;
}

/** Written after every file is verified: lets a later run (or an offline one) trust the folder without re-hashing. */
const MANIFEST = '.needlework-download.json';
type Manifest = Record<string, { size: number; sha256: string }>;

/**
 * Downloads the export layout of a Hub model repository into `dest`: `config.json`, `tokenizer.json`,
 * `tokenizer_config.json` and the first ONNX graph the layout has (`model.onnx`, else `onnx/model.onnx`; the
 * quantized variant on request), with its external-data file when the graph keeps its weights beside it. The file
 * list, sizes and LFS sha256s come from the Hub API (`/api/models/<repo>/revision/<rev>?blobs=true`); when the API
 * cannot be reached the fixed layout is tried file by file, and the hashes come from the download headers.
 */
export async function downloadHubModel(ref: HubRef, options: HubDownloadOptions): Promise<string> {
  const doFetch = options.fetch ?? fetch;
  const base = options.endpoint.replace(/\/+$/, '');
  const manifest = await readManifest(options.dest);
  let wanted: Wanted[] | undefined;
  try {
    wanted = await listFromApi(ref, base, options.quantized === true, doFetch);
  } catch (error) {
    if (error instanceof UserError) throw error;
    // No API (a mirror without it, or offline): a complete earlier download is used as it is.
    if (complete(manifest, options.quantized === true)) return options.dest;
  }
  const resolveUrl = (file: string) =>
    `${base}/${ref.repo}/resolve/${encodeURIComponent(ref.revision)}/${file.split('/').map(encodeURIComponent).join('/')}`;
  const files = wanted ?? [
    ...['config.json', 'tokenizer.json', 'tokenizer_config.json'].map((file) => ({ file, expected: {} })),
  ];
  for (const { file, expected } of files) {
    const known = manifest[file];
    const present = await stat(join(options.dest, file)).catch(() => undefined);
    if (known && present?.size === known.size && sameAs(known, expected)) continue;
    manifest[file] = await downloadFile(resolveUrl(file), join(options.dest, file), expected, {
      ...options,
      label: `${ref.repo} ${file}`,
      fetch: doFetch,
    });
    await writeManifest(options.dest, manifest);
  }
  if (!wanted) {
    // Without a listing, the graph is found by trying the layout's places in order.
    let found = false;
    for (const file of modelCandidates(options.quantized === true)) {
      if (manifest[file] && (await stat(join(options.dest, file)).catch(() => undefined))) {
        found = true;
        break;
      }
      try {
        manifest[file] = await downloadFile(
          resolveUrl(file),
          join(options.dest, file),
          {},
          {
            ...options,
            label: `${ref.repo} ${file}`,
            fetch: doFetch,
          },
        );
        await writeManifest(options.dest, manifest);
        found = true;
        break;
      } catch (error) {
        if (!(error instanceof UserError && error.message.includes('HTTP 404'))) throw error;
      }
    }
    if (!found) {
      throw new UserError({
        file: `${base}/${ref.repo}`,
        message: `no ONNX graph at ${modelCandidates(options.quantized === true).join(' or ')} (revision ${ref.revision})`,
      });
    }
  }
  return options.dest;
}

interface Sibling {
  rfilename: string;
  size?: number;
  lfs?: { sha256?: string; size?: number };
}

async function listFromApi(
  ref: HubRef,
  base: string,
  quantized: boolean,
  doFetch: typeof fetch,
): Promise<Wanted[]> {
  const url = `${base}/api/models/${ref.repo}/revision/${encodeURIComponent(ref.revision)}?blobs=true`;
  const response = await doFetch(url);
  if (response.status === 404 || response.status === 401) {
    await response.body?.cancel();
    throw new UserError({
      file: `${base}/${ref.repo}`,
      message: `no such model repository or revision "${ref.revision}" (HTTP ${response.status}; a gated or private repository needs its files downloaded by hand)`,
    });
  }
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  const info = (await response.json()) as { siblings?: Sibling[] };
  const siblings = new Map((info.siblings ?? []).map((s) => [s.rfilename, s]));
  const missing = ['config.json', 'tokenizer.json', 'tokenizer_config.json'].filter((f) => !siblings.has(f));
  const model = modelCandidates(quantized).find((f) => siblings.has(f));
  if (!model) missing.push(modelCandidates(quantized).join(' or '));
  if (missing.length > 0) {
    throw new UserError({
      file: `${base}/${ref.repo}`,
      message: `not an ONNX export in the Hugging Face layout: missing ${missing.join(', ')} (revision ${ref.revision})`,
    });
  }
  const names = ['config.json', 'tokenizer.json', 'tokenizer_config.json', model!];
  // Graphs over 2 GB keep their weights in a side file that must sit beside them.
  for (const name of siblings.keys()) {
    if (name === `${model}_data` || name === `${model}.data`) names.push(name);
  }
  return names.map((file) => {
    const s = siblings.get(file)!;
    const expected: Expected = {};
    const size = s.lfs?.size ?? s.size;
    if (typeof size === 'number') expected.size = size;
    if (typeof s.lfs?.sha256 === 'string') expected.sha256 = s.lfs.sha256;
    return { file, expected };
  });
}

function sameAs(known: { size: number; sha256: string }, expected: Expected): boolean {
  return (
    (expected.size === undefined || expected.size === known.size) &&
    (expected.sha256 === undefined || expected.sha256 === known.sha256)
  );
}

function complete(manifest: Manifest, quantized: boolean): boolean {
  return (
    ['config.json', 'tokenizer.json', 'tokenizer_config.json'].every((f) => manifest[f]) &&
    modelCandidates(quantized).some((f) => manifest[f])
  );
}

async function readManifest(dest: string): Promise<Manifest> {
  try {
    return JSON.parse(await readFile(join(dest, MANIFEST), 'utf8')) as Manifest;
  } catch {
    return {};
  }
}

async function writeManifest(dest: string, manifest: Manifest): Promise<void> {
  await writeFileAtomic(join(dest, MANIFEST), JSON.stringify(manifest, null, 2));
}
