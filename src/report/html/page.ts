import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { clientFolder } from '../../ui/assets.js';
import type { ReportInfo } from '../../ui/client/types.js';
import type { ReportAnswer } from './answers.js';

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
  const folder = clientFolder();
  try {
    client = {
      script: readFileSync(join(folder, 'bundle.js'), 'utf8'),
      style: readFileSync(join(folder, 'style.css'), 'utf8'),
    };
  } catch (error) {
    throw new Error(
      `the HTML report's client is not built (${folder}): run npm run build (${(error as Error).message})`,
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
 * `renderHtmlPage` in pieces: each answer as it comes, its lists an item at a time, so the reporter writes the page
 * (tens of MB at 10,000 workups) without ever holding it whole, nor any answer as one JSON string. The client comes
 * last: it reads the answers above it.
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
  for await (const [path, answer] of answers) {
    yield `<script type="application/json" data-api="${escapeHtml(path)}">`;
    yield* embedJsonChunks(answer);
    yield '</script>\n';
  }
  yield `<script>${own.script}</script>
</body>
</html>
`;
}

/** `embedJson` of a value in pieces: an object's array-valued properties an item at a time, the rest as one piece each. */
function* embedJsonChunks(value: unknown): Generator<string> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    yield embedJson(value);
    return;
  }
  let separator = '{';
  for (const [key, item] of Object.entries(value)) {
    // What JSON.stringify leaves out of an object.
    if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
    yield `${separator}${JSON.stringify(key)}:`;
    separator = ',';
    if (!Array.isArray(item)) {
      yield embedJson(item);
      continue;
    }
    let open = '[';
    for (const element of item) {
      // An array's holes and unserialisable items are null to JSON.stringify.
      const json = JSON.stringify(element) as string | undefined;
      yield `${open}${json === undefined ? 'null' : scriptSafe(json)}`;
      open = ',';
    }
    yield open === '[' ? '[]' : ']';
  }
  yield separator === '{' ? '{}' : '}';
}
