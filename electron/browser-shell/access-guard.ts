import { randomBytes, timingSafeEqual } from 'node:crypto';

/** What the guard reads of a request: its headers as Node gives them, and its target. */
export interface RequestHead {
  host: string | undefined;
  origin: string | undefined;
  /** The request target, e.g. `/<secret>/assets/index.js?x`. */
  url: string | undefined;
}

export type Verdict =
  /** Allowed: `path` is what follows the secret (`/index.html`, `/assets/…`), never empty. */
  | { allowed: true; path: string }
  /** Allowed, but at another address: the page lives on 127.0.0.1 only, with a trailing slash after the secret. */
  | { allowed: true; redirectTo: string }
  | { allowed: false; status: 400 | 403; reason: string };

export interface AccessGuard {
  /** The page's one origin, `http://127.0.0.1:<port>`: the Origin a socket must come from and the bridge's sender. */
  appOrigin: string;
  /** The address a person opens: the origin and the secret. */
  address: string;
  /** Checks an HTTP request (`websocket: false`) or a WebSocket upgrade. */
  check(head: RequestHead, kind: { websocket: boolean }): Verdict;
}

/** A new secret each start: 32 random bytes, URL-safe. */
export function newAccessSecret(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * The browser shell's gate, in front of every request and WebSocket:
 *
 * - `Host` must be `127.0.0.1:<port>` or `localhost:<port>`: a page on another site whose
 *   name was re-pointed at 127.0.0.1 (DNS rebinding) sends its own name and is refused.
 * - `Origin`, where a browser sends one, must be the app's own; a WebSocket must send it.
 *   Browsers let any page open a WebSocket to any address, so this is what stops another
 *   page, local or remote, from driving the bridge.
 * - The path must start with the secret, which only the address printed at start carries:
 *   other users of a shared machine can reach the port but cannot guess it. It is in the
 *   path rather than a cookie because cookies are shared by every port of a host.
 */
export function createAccessGuard(options: { port: number; secret: string }): AccessGuard {
  const { port, secret } = options;
  const appOrigin = `http://127.0.0.1:${port}`;
  const hosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  const secretBytes = Buffer.from(secret);

  const secretMatches = (segment: string): boolean => {
    const given = Buffer.from(segment);
    // Compared in constant time, so the answer's timing does not spell the secret out.
    return given.length === secretBytes.length && timingSafeEqual(given, secretBytes);
  };

  return {
    appOrigin,
    address: `${appOrigin}/${secret}/`,
    check(head, { websocket }) {
      const host = head.host?.toLowerCase();
      if (!host || !hosts.has(host)) return refuse(403, 'This address is not the till app.');
      if (head.origin !== undefined ? head.origin.toLowerCase() !== appOrigin : websocket)
        return refuse(403, 'Only the till app’s own page may do this.');

      const target = head.url ?? '';
      if (!target.startsWith('/')) return refuse(400, 'Bad request.');
      const pathname = target.split(/[?#]/, 1)[0] ?? '';
      const slash = pathname.indexOf('/', 1);
      const segment = slash === -1 ? pathname.slice(1) : pathname.slice(1, slash);
      if (!secretMatches(segment))
        return refuse(403, 'Open the address that "npm start" printed: it carries this session’s secret.');

      const rest = slash === -1 ? '' : pathname.slice(slash);
      if (websocket) return { allowed: true, path: rest };
      // One address for the page, so the socket's Origin is always the app's; `/<secret>`
      // gets its slash so the page's relative `./assets/…` resolve under the secret.
      if (host !== `127.0.0.1:${port}` || rest === '')
        return { allowed: true, redirectTo: `${appOrigin}/${secret}${rest || '/'}` };
      return { allowed: true, path: rest };
    },
  };
}

function refuse(status: 400 | 403, reason: string): Verdict {
  return { allowed: false, status, reason };
}
