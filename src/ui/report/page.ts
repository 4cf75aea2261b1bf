import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createGzip } from 'node:zlib';
import { CLIENT_SCRIPT, clientFolder } from '../assets.js';
import type { ReportInfo } from '../client/types.js';
import type { ReportAnswer } from './answers.js';
import { type EncodedText, WrittenJson } from './written-json.js';

/**
 * JSON safe inside a `<script>` element: `<`, `>` and `&` escaped (so no `</script>` or `<!--` can end or bend the
 * element), and the two line separators JavaScript once treated as newlines.
 */
export function embedJson(value: unknown): string {
  return scriptSafe(JSON.stringify(value) ?? 'null');
}

function scriptSafe(json: string): string {
  return json
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** Text for an HTML text node or a double-quoted attribute. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

function sha256(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/** The served UI's client, bundled into one script by `npm run build`, and its stylesheet: what the report inlines. */
export interface ReportClient {
  script: string;
  style: string;
}

let client: ReportClient | undefined;

/** The built client (read once), or a clear error when it is not built. */
export function reportClient(): ReportClient {
  if (client) return client;
  const bundle = join(clientFolder(), CLIENT_SCRIPT);
  try {
    client = {
      script: readFileSync(bundle, 'utf8'),
      style: readFileSync(join(clientFolder(), 'style.css'), 'utf8'),
    };
  } catch (error) {
    throw new Error(
      `the HTML report's client is not built (${bundle}): run npm run build (${(error as Error).message})`,
    );
  }
  return client;
}

/**
 * The Content-Security-Policy of the report: nothing may load from anywhere (`default-src 'none'`, no connection, no
 * image), and the only script and stylesheet allowed are the page's own, by hash. An injected `<script>`, an inline
 * handler or a `javascript:` URL would not run even if one reached the DOM.
 */
export function contentSecurityPolicy(own: ReportClient = reportClient()): string {
  return [
    "default-src 'none'",
    `script-src ${sha256(own.script)}`,
    `style-src ${sha256(own.style)}`,
    "img-src 'none'",
    "connect-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

/** The whole report: one file with the client, its style and the run's answers inline, which opens from `file://`. */
export async function renderHtmlPage(
  info: ReportInfo,
  answers: AsyncIterable<ReportAnswer>,
): Promise<string> {
  let page = '';
  for await (const chunk of htmlPageChunks(info, answers)) page += chunk;
  return page;
}

/**
 * How hard the answers are compressed: zlib's fastest. JSON of many alike rows shrinks ten times or more even so (1,000
 * workups x 10 criteria: 10.4 MB of answers, 0.8 MB compressed; 0.5 MB at zlib's default level, for a third more time).
 */
const LEVEL = 1;
/** How much text is handed to the compressor at once: fewer, larger jobs for the thread pool. */
const BATCH = 256 * 1024;
/**
 * How much text a segment holds before the next answer starts another: the page inflates only the segments of the
 * answers it shows (the first view's run need not wait for a thousand workups), and gzip's 32 KB window loses nothing
 * at the cut.
 */
const SEGMENT = 1024 * 1024;

/**
 * `renderHtmlPage` in pieces. The run's answers are written one after another as text, in segments of about a
 * megabyte, each gzip-compressed and base64-encoded into its `<script type="application/octet-stream"
 * id="needlework-answers-<n>">` as the answers come (each answer's lists an item at a time, compressed on the thread
 * pool), so the reporter writes the page without ever holding it, or any answer, as one string. Then
 * `needlework-index`: each answer's API path, its segment and where its JSON lies in the segment's text (from, to, in
 * UTF-16 code units). The client comes last: it reads what is above it.
 */
export async function* htmlPageChunks(
  info: ReportInfo,
  answers: AsyncIterable<ReportAnswer>,
): AsyncGenerator<string> {
  const own = reportClient();
  yield `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(contentSecurityPolicy(own))}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(info.title)}</title>
<style>${own.style}</style>
</head>
<body>
<header><span class="title">${escapeHtml(info.title)}</span></header>
<main id="view" aria-live="polite"></main>
<noscript><p>This report needs JavaScript to show its results.</p></noscript>
<script type="application/json" id="needlework-report">${embedJson(info)}</script>
`;
  const open = (n: number) => `<script type="application/octet-stream" id="needlework-answers-${n}">`;
  let segment = 0;
  let packed = new PackedText();
  yield open(segment);
  const index: Array<[path: string, segment: number, from: number, to: number]> = [];
  for await (const [path, answer] of answers) {
    if (packed.length >= SEGMENT) {
      yield `${await packed.end()}</script>\n${open(++segment)}`;
      packed = new PackedText();
    }
    const from = packed.length;
    const pieces = answer instanceof WrittenJson ? answer.pieces : jsonChunks(answer);
    for (const piece of pieces) if (packed.write(piece)) await packed.drained();
    index.push([path, segment, from, packed.length]);
    const done = packed.take();
    if (done) yield done;
  }
  yield await packed.end();
  yield `</script>
<script type="application/json" id="needlework-index">${embedJson(index)}</script>
<script>${own.script}</script>
</body>
</html>
`;
}

/** A text written in pieces, gzip-compressed on the thread pool and taken back as base64 as it comes out. */
class PackedText {
  /** UTF-16 code units written: where the next piece starts. */
  length = 0;
  private readonly gzip = createGzip({ level: LEVEL });
  private readonly out: Buffer[] = [];
  /** Text written but not yet handed to the compressor: the bytes of the pieces that came encoded, then `batch`. */
  private encoded: Buffer[] = [];
  private batch = '';
  /** The size of what is not yet handed to the compressor (UTF-16 code units of text, bytes of encoded pieces). */
  private held = 0;
  /** Bytes compressed but not yet encoded: base64 goes three bytes at a time. */
  private rest = Buffer.alloc(0);

  constructor() {
    this.gzip.on('data', (chunk: Buffer) => this.out.push(chunk));
  }

  /**
   * Adds a piece of text; true when the compressor has more to do than its buffer holds, and the writer should wait for
   * `drained` (a check, not a promise per piece: an answer is thousands of pieces).
   */
  write(piece: string | EncodedText): boolean {
    if (typeof piece === 'string') {
      this.length += piece.length;
      this.held += piece.length;
      this.batch += piece;
    } else {
      this.length += piece.length;
      this.held += piece.bytes.length;
      if (this.batch) this.encoded.push(Buffer.from(this.batch));
      this.batch = '';
      this.encoded.push(piece.bytes);
    }
    if (this.held < BATCH) return false;
    return !this.gzip.write(this.taken());
  }

  /** What is held, handed over: one string or one buffer. */
  private taken(): string | Buffer {
    const text = this.batch;
    this.batch = '';
    this.held = 0;
    if (this.encoded.length === 0) return text;
    if (text) this.encoded.push(Buffer.from(text));
    const bytes = Buffer.concat(this.encoded);
    this.encoded = [];
    return bytes;
  }

  drained(): Promise<void> {
    return new Promise((resolve) => this.gzip.once('drain', () => resolve()));
  }

  /** What has come out of the compressor so far, as base64 (all but the last bytes short of three). */
  take(): string {
    return this.base64(false);
  }

  /** The rest, the text ended. */
  async end(): Promise<string> {
    // The last bytes come before the readable side's end, after the writable side's finish.
    await new Promise<void>((resolve, reject) => {
      this.gzip.once('error', reject);
      this.gzip.once('end', resolve);
      this.gzip.end(this.taken());
    });
    return this.base64(true);
  }

  private base64(last: boolean): string {
    if (this.out.length === 0 && !last) return '';
    const bytes = Buffer.concat([this.rest, ...this.out.splice(0)]);
    const whole = last ? bytes.length : bytes.length - (bytes.length % 3);
    this.rest = bytes.subarray(whole);
    return bytes.subarray(0, whole).toString('base64');
  }
}

/**
 * How many items of an answer's list go into one piece of its JSON: one `JSON.stringify` of a few hundred rows (tens
 * of kilobytes) rather than one call per row (1,000 cases: 57 ms of the report's 147 ms went to the calls per row).
 */
const ITEMS = 256;

/**
 * A value's JSON in pieces (what `JSON.stringify` writes, never held as one string): an object's array-valued
 * properties `ITEMS` items at a time, the rest as one piece each.
 */
function* jsonChunks(value: unknown): Generator<string> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    yield JSON.stringify(value) ?? 'null';
    return;
  }
  let separator = '{';
  for (const [key, item] of Object.entries(value)) {
    // What JSON.stringify leaves out of an object.
    if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
    yield `${separator}${JSON.stringify(key)}:`;
    separator = ',';
    if (!Array.isArray(item) || item.length <= ITEMS) {
      yield JSON.stringify(item);
      continue;
    }
    // Each slice's items without its brackets (a slice keeps the array's holes, which JSON.stringify makes null).
    for (let i = 0; i < item.length; i += ITEMS) {
      const json = JSON.stringify(item.slice(i, i + ITEMS));
      yield i === 0 ? json.slice(0, -1) : `,${json.slice(1, -1)}`;
    }
    yield ']';
  }
  yield separator === '{' ? '{}' : '}';
}
