import { ApiError, get } from './api.js';
import type { View, ViewContext } from './app.js';
import { clear, el, link } from './dom.js';
import { inlined } from './report.js';
import { reportHeader } from './report-header.js';
import { currentUrl, linkedPath, setPath } from './route.js';
import type { LiveMode, RunEvent, WorkupAnswer } from './types.js';
import { caseView } from './views/case.js';
import { compareView } from './views/compare.js';
import { runView } from './views/run.js';
import { runsView } from './views/runs.js';
import { testsView } from './views/tests.js';
import { trendsView } from './views/trends.js';
import { trialsView } from './views/trials.js';
import { workupView } from './views/workup.js';
import { activeList } from './vlist.js';

const root = document.getElementById('view') as HTMLElement;
const status = document.getElementById('live') as HTMLElement;
let listeners: Array<(event: RunEvent) => void> = [];
let generation = 0;
/** The URL last drawn: a fragment navigation of the report fires both popstate and hashchange, drawn once. */
let drawn = '';

/**
 * The view of a path: `/`, `/runs`, `/runs/<id>`, `/runs/<id>/trials`, `/runs/<id>/workups/<workup>`, `/compare`,
 * `/case`, `/trends`.
 */
function viewOf(path: string): { view: View; nav: string } | undefined {
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  if (parts.length === 0 || (parts[0] === 'runs' && parts.length === 1))
    return { view: runsView, nav: 'runs' };
  if (parts[0] === 'runs' && parts.length === 2) return { view: runView(parts[1] as string), nav: 'runs' };
  if (parts[0] === 'runs' && parts.length === 3 && parts[2] === 'trials')
    return { view: trialsView(parts[1] as string), nav: 'runs' };
  if (parts[0] === 'runs' && parts.length === 3 && parts[2] === 'tests')
    return { view: testsView(parts[1] as string), nav: 'runs' };
  if (parts[0] === 'runs' && parts.length === 4 && parts[2] === 'workups')
    return {
      view: (context) =>
        workupView(get<WorkupAnswer>(`/api${context.url.pathname}${context.url.search}`))(context),
      nav: 'runs',
    };
  if (parts[0] === 'compare' && parts.length === 1) return { view: compareView, nav: 'compare' };
  if (parts[0] === 'case' && parts.length === 1) return { view: caseView, nav: 'runs' };
  if (parts[0] === 'trends' && parts.length === 1) return { view: trendsView, nav: 'trends' };
  return undefined;
}

function render(): void {
  const mine = ++generation;
  listeners = [];
  clear(root);
  const url = currentUrl();
  // The report holds one run: the list of runs is not in it, so its place (and the brand's) is the report's own view.
  if (inlined && (url.pathname === '/' || url.pathname === '/runs')) {
    go(inlined.info.home, true);
    return;
  }
  drawn = url.href;
  const found = viewOf(url.pathname);
  for (const a of document.querySelectorAll<HTMLAnchorElement>('nav a'))
    a.setAttribute('aria-current', String(a.dataset['nav'] === found?.nav));
  if (!found) {
    root.appendChild(
      el('p', { class: 'error' }, `No view at ${url.pathname}. `, link('/runs', 'See the runs.')),
    );
    return;
  }
  const context: ViewContext = {
    root,
    url,
    go,
    setQuery(values) {
      const next = currentUrl();
      for (const [key, value] of Object.entries(values))
        if (value === undefined || value === '') next.searchParams.delete(key);
        else next.searchParams.set(key, value);
      setPath(next.pathname + next.search, true);
      drawn = currentUrl().href;
    },
    onRun(listener) {
      if (mine === generation) listeners.push(listener);
    },
    current: () => mine === generation,
  };
  Promise.resolve(found.view(context))
    .catch((error: unknown) => {
      if (mine !== generation) return;
      clear(root);
      const message = error instanceof ApiError ? error.message : String((error as Error)?.message ?? error);
      root.appendChild(el('p', { class: 'error', role: 'alert' }, message));
    })
    .finally(() => {
      if (mine === generation) document.body.dataset['ready'] = 'true';
    });
}

function go(path: string, replace = false): void {
  setPath(path, replace);
  render();
}

// Links of the UI's own views change the view in place; a modified click (new tab) is the browser's.
document.addEventListener('click', (event) => {
  if (
    event.defaultPrevented ||
    event.button !== 0 ||
    event.metaKey ||
    event.ctrlKey ||
    event.shiftKey ||
    event.altKey
  )
    return;
  const a = (event.target as HTMLElement).closest('a');
  const path = a && !a.target ? linkedPath(a) : undefined;
  if (path === undefined) return;
  event.preventDefault();
  go(path);
});
const moved = () => {
  if (currentUrl().href !== drawn) render();
};
window.addEventListener('popstate', moved);
window.addEventListener('hashchange', moved);

document.addEventListener('keydown', (event) => {
  if (event.metaKey || event.ctrlKey || event.altKey) return;
  const typing = (event.target as HTMLElement).closest('input, select, textarea');
  if (event.key === '/' && !typing) {
    const search = root.querySelector<HTMLInputElement>('input[type=search]');
    if (search) {
      event.preventDefault();
      search.focus();
    }
    return;
  }
  if (typing) {
    if (event.key === 'Escape') (event.target as HTMLElement).blur();
    return;
  }
  if (activeList()?.key(event)) event.preventDefault();
});

/** The Live feed: runs appended while the page is open arrive as Server-Sent Events, and reconnect by themselves. */
function connect(): void {
  const events = new EventSource('/api/events');
  events.addEventListener('open', () => {
    status.textContent = 'live';
    status.className = 'live on';
  });
  events.addEventListener('error', () => {
    status.textContent = 'reconnecting';
    status.className = 'live off';
  });
  events.addEventListener('mode', (message) => {
    const live = JSON.parse((message as MessageEvent<string>).data) as LiveMode;
    status.textContent = live.mode;
    status.className = `live ${live.mode === 'live' ? 'on' : 'off'}`;
    status.title = live.reason ?? '';
  });
  events.addEventListener('run', (message) => {
    const event = JSON.parse((message as MessageEvent<string>).data) as RunEvent;
    for (const listener of listeners) listener(event);
  });
  events.addEventListener('reset', () => render());
}

if (inlined) reportHeader(inlined);
else connect();
render();
