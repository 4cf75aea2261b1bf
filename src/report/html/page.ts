import { createHash } from 'node:crypto';
import { CLIENT_SCRIPT } from './client.js';
import { STYLE } from './style.js';
import type { HtmlReportData } from './types.js';

/**
 * JSON safe inside a `<script>` element: `<`, `>` and `&` escaped (so no `</script>` or `<!--` can end or bend the
 * element), and the two line separators JavaScript once treated as newlines.
 */
export function embedJson(value: unknown): string {
  return scriptSafe(JSON.stringify(value));
}

function scriptSafe(json: string): string {
  return json
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

function sha256(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/** Text for an HTML text node or a double-quoted attribute. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/**
 * The Content-Security-Policy of the report: nothing may load from anywhere (`default-src 'none'`), and the only
 * script and stylesheet allowed are the page's own, by hash. An injected `<script>`, an inline handler or a
 * `javascript:` URL would not run even if one reached the DOM.
 */
export function contentSecurityPolicy(): string {
  return [
    "default-src 'none'",
    `script-src ${sha256(CLIENT_SCRIPT)}`,
    `style-src ${sha256(STYLE)}`,
    "img-src 'none'",
    "connect-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

/** The whole report: one file with its style, script and data inline, which works offline from `file://`. */
export async function renderHtmlPage(data: HtmlReportData): Promise<string> {
  let page = '';
  for await (const chunk of htmlPageChunks(data)) page += chunk;
  return page;
}

/**
 * `renderHtmlPage` in pieces, the data's lists (checks, tests, workups) an item at a time: the reporter writes them as
 * they come, so the page (34 MB at 10,000 workups) is never held whole, nor its data as one JSON string. The fields of
 * `later` (the charts, which end with a run the store is still appending) are the data's last, awaited once every
 * other field is written.
 */
export async function* htmlPageChunks(
  data: HtmlReportData,
  later?: Promise<Partial<HtmlReportData>>,
): AsyncGenerator<string> {
  yield `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(contentSecurityPolicy())}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(data.title)}</title>
<style>${STYLE}</style>
</head>
<body>
<header><h1>${escapeHtml(data.title)}</h1><span class="meta">generated ${escapeHtml(data.generatedAt)}</span></header>
<main>
<div id="summary" class="cards"></div>
<div class="filters">
<input id="search" type="search" placeholder="Search specs, workups, criteria, messages" aria-label="Search">
<label>verdict <select id="verdict"><option value="">all</option><option value="fail">fail</option><option value="pass">pass</option><option value="not-applicable">not applicable</option></select></label>
<label>spec <select id="spec"><option value="">all</option></select></label>
</div>
<section id="gate-section" class="hidden"><h2>Regression gate</h2><div id="gate"></div></section>
<section id="checks-section"><h2>Checks (failing first)</h2><div id="checks"></div></section>
<details id="trials" class="fold hidden"><summary><h2>Repeated trials</h2></summary></details>
<details id="trend" class="fold hidden"><summary><h2>Trend</h2></summary></details>
<details id="metrics" class="fold hidden"><summary><h2>Metric means</h2></summary></details>
<section><h2>Workups</h2><div id="workups"></div></section>
<section id="tests-section" class="hidden"><h2>Other tests</h2><div id="tests"></div></section>
</main>
<noscript><p>This report needs JavaScript to show its results.</p></noscript>
<script type="application/json" id="needlework-data">`;
  yield* embedJsonChunks(data, later);
  yield `</script>
<script>${CLIENT_SCRIPT}</script>
</body>
</html>
`;
}

/**
 * `embedJson` of an object in pieces: each array-valued property an item at a time, the rest as one piece each; then
 * the properties of `later` (none of which `value` has), once it resolves.
 */
async function* embedJsonChunks(value: object, later?: Promise<object>): AsyncGenerator<string> {
  let separator = '{';
  function* properties(object: object): Generator<string> {
    for (const [key, item] of Object.entries(object)) {
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
  }
  yield* properties(value);
  if (later) yield* properties(await later);
  yield separator === '{' ? '{}' : '}';
}
