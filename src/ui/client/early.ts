// index.html loads this module before main.js, as a script of its own with no import of its own: it runs as soon as
// the page is parsed, while main.js's dozen modules load. A page opened at a workup's URL then asks for the workup's
// answer and for the workup view's module at once, rather than once every module of the page has loaded and run (the
// first screen of a 2,000-step workup from its URL waited for them). main.js imports it too, and finds the same module.
// The static report inlines its answers: its pages ask for nothing here.

/** The API path of a workup view's answer for a page path (and its query), or undefined for another view. */
export function workupAnswerPath(pathname: string, search: string): string | undefined {
  const parts = pathname.split('/').filter(Boolean);
  return parts[0] === 'runs' && parts.length === 4 && parts[2] === 'workups'
    ? `/api${pathname}${search}`
    : undefined;
}

/** What the page asked for as it started: the workup answer at `path` (as `get` asks for it) and the view's module. */
export interface Early {
  path: string;
  response: Promise<Response>;
  view: Promise<typeof import('./views/workup.js')>;
}

let early: Early | undefined;
// The report's page holds its answers (report.ts reads them from this element).
const path = document.getElementById('needlework-report')
  ? undefined
  : workupAnswerPath(location.pathname, location.search);
if (path !== undefined) {
  early = {
    path,
    response: fetch(path, { headers: { accept: 'application/json' } }),
    view: import('./views/workup.js'),
  };
  // Read by the view when it opens; a failure is its to show, not an unhandled rejection meanwhile.
  early.response.catch(() => undefined);
  early.view.catch(() => undefined);
  performance.mark('needlework:workup-asked');
}

/** What the page asked for as it started, for the workup answer at `path`: given once, then asked anew. */
export function takeEarly(path: string): Early | undefined {
  const found = early?.path === path ? early : undefined;
  early = undefined;
  return found;
}
