import type { RunEvent } from './types.js';

/** What a view gets: where it draws, its URL, and the app's shared services. */
export interface ViewContext {
  root: HTMLElement;
  url: URL;
  /** Goes to another view (a path of the UI), as a click on its link would. */
  go(path: string, replace?: boolean): void;
  /** Changes the URL's query without drawing again (a filter typed in place). */
  setQuery(values: Record<string, string | undefined>): void;
  /** Hears each run appended while the page is open; the listener is dropped when the view is left. */
  onRun(listener: (event: RunEvent) => void): void;
  /** Whether the view is still the one shown (a late answer for a view left is dropped). */
  current(): boolean;
}

export type View = (context: ViewContext) => void | Promise<void>;
