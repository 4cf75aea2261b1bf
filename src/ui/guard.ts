import type { IncomingMessage } from 'node:http';

/**
 * The names a browser may use to reach the UI: the address it listens on, and on loopback the loopback names. A
 * request naming any other host in its `Host` header is a DNS rebinding attack (a page on evil.example whose name
 * now resolves to 127.0.0.1) and is refused, whatever it asks.
 */
export function allowedHosts(listen: string, port: number, extra: readonly string[] = []): Set<string> {
  const names = new Set<string>([listen, ...extra]);
  if (isLoopback(listen) || listen === '0.0.0.0' || listen === '::') {
    names.add('127.0.0.1');
    names.add('localhost');
    names.add('::1');
  }
  names.delete('0.0.0.0');
  names.delete('::');
  const hosts = new Set<string>();
  for (const name of names) hosts.add(`${name.includes(':') ? `[${name}]` : name}:${port}`.toLowerCase());
  return hosts;
}

export function isLoopback(address: string): boolean {
  return (
    address === 'localhost' || address === '::1' || /^127\./.test(address) || address === '::ffff:127.0.0.1'
  );
}

/**
 * Why a request is refused, or undefined when it may be served. The UI serves only its own pages:
 * - `Host` must be one of its own names (DNS rebinding);
 * - an `Origin`, when sent, must be its own (a page of another site posting or reading cross-site; `null` included);
 * - `Sec-Fetch-Site`, when sent, must be `same-origin` or `none` (a typed URL): another site's page, or another port
 *   of localhost (`same-site`), is not its own.
 * No response carries CORS headers, so no other origin's script can read an answer either.
 */
export function refusal(request: IncomingMessage, hosts: ReadonlySet<string>): string | undefined {
  const host = request.headers.host?.toLowerCase();
  if (!host || !hosts.has(host)) return `the Host ${JSON.stringify(host ?? '')} is not this server`;
  const origin = request.headers.origin;
  if (origin !== undefined) {
    let own = false;
    try {
      const url = new URL(origin);
      own = url.protocol === 'http:' && hosts.has(url.host.toLowerCase());
    } catch {
      own = false;
    }
    if (!own) return `the Origin ${JSON.stringify(origin)} is not this server`;
  }
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none')
    return `a ${site} request (Sec-Fetch-Site) is not served`;
  return undefined;
}

/** The headers every answer carries: nothing may frame, sniff, refer or load from elsewhere. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Cross-Origin-Opener-Policy': 'same-origin',
};
