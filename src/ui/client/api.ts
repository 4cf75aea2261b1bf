import { inlined } from './report.js';

/** The UI's JSON API, read with `fetch` from the page's own origin, or in the static report from its inlined answers. */
export class ApiError extends Error {}

export async function get<T>(path: string, signal?: AbortSignal): Promise<T> {
  if (inlined) {
    const answer = inlined.answer<T>(path);
    if (answer === undefined) throw new ApiError(inlined.missing(path));
    return answer;
  }
  const response = await fetch(path, { headers: { accept: 'application/json' }, ...(signal && { signal }) });
  const text = await response.text();
  if (!response.ok) {
    let message = text;
    try {
      message = (JSON.parse(text) as { error?: string }).error ?? text;
    } catch {
      // Not JSON: the text is the message.
    }
    throw new ApiError(`${response.status}: ${message}`);
  }
  return JSON.parse(text) as T;
}
