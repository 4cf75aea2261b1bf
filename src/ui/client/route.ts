import { BASE, inlined } from './report.js';

// Where a view's path lives in the address: served, the path itself (`/runs/<id>?filter=failing`); in the static
// report, which opens from file:// where there is no server to answer another path, after the `#` of the one file
// (`report.html#/runs/<id>?filter=failing`). Every view is a URL either way.

/** The view's URL: its path and query, as the views read them. */
export function currentUrl(): URL {
  if (!inlined) return new URL(location.href);
  const path = location.hash.startsWith('#/') ? location.hash.slice(1) : inlined.info.home;
  return new URL(path, BASE);
}

/** What a link to the view at `path` points at. */
export function href(path: string): string {
  return inlined ? `#${path}` : path;
}

/** The view a link of the page points at, or undefined for a link that is not one of the views. */
export function linkedPath(a: HTMLAnchorElement): string | undefined {
  if (inlined) {
    const same =
      a.origin === location.origin && a.pathname === location.pathname && a.search === location.search;
    return same && a.hash.startsWith('#/') ? a.hash.slice(1) : undefined;
  }
  return a.origin === location.origin ? a.pathname + a.search : undefined;
}

/** Puts `path` in the address, as a new entry of the history or in place of the current one. */
export function setPath(path: string, replace = false): void {
  if (replace) history.replaceState(null, '', href(path));
  else history.pushState(null, '', href(path));
}
