import { isRecord } from '../../common/is-record';

// The page's end of a bridge socket, shared by the browser shell's two page bridges (the
// till's, `page-bridge.ts`, and the customer display's, `display-bridge.ts`): requests as
// `{ id, channel, payload }`, answers as `{ id, result }` or `{ id, refused }`, and pushes on
// the page's channels, `{ push, payload }`. Bundled into each page's script; nothing of it is exposed.
//
// Type-checked with the main process's Node settings; the few page APIs it uses are declared
// here rather than pulling the DOM's types into electron/.

interface PageSocket {
  readonly readyState: number;
  send(data: string): void;
  addEventListener(type: 'open' | 'close', listener: () => void): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
}
interface PageGlobals {
  location: { host: string; pathname: string };
  WebSocket: new (url: string) => PageSocket;
  setTimeout(callback: () => void, ms: number): unknown;
}

export interface PageSocketClient {
  invoke(channel: string, payload?: unknown): Promise<unknown>;
  /** Calls `listener` with the payload of every push on `channel`; returns the unsubscribe. */
  onPush(channel: string, listener: (payload: unknown) => void): () => void;
}

export function createPageSocketClient(options: {
  /** The socket's path under the secret, e.g. `/__till/socket`. */
  path: string;
  /** The push channels this page may listen to; a push on any other is dropped. */
  pushChannels: readonly string[];
  /**
   * Reopens the socket this long after it closes, to hear pushes again without a call first
   * (the customer display, which only listens); by default the next call reopens it.
   */
  reconnectMs?: number;
}): PageSocketClient {
  const page = globalThis as unknown as PageGlobals;
  // The page lives at /<secret>/…; the socket needs the same secret (see access-guard.ts).
  const secret = page.location.pathname.split('/')[1] ?? '';
  const socketUrl = `ws://${page.location.host}/${secret}${options.path}`;
  const pending = new Map<number, { resolve(result: unknown): void; reject(error: Error): void }>();
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  let nextId = 1;
  let connection: Promise<PageSocket> | null = null;

  /** The open socket, opening one if there is none: after the shell restarts, the next call reconnects. */
  function connect(): Promise<PageSocket> {
    connection ??= new Promise<PageSocket>((resolve, reject) => {
      const socket = new page.WebSocket(socketUrl);
      socket.addEventListener('open', () => resolve(socket));
      socket.addEventListener('message', (event) => receive(event.data));
      socket.addEventListener('close', () => {
        connection = null;
        const gone = new Error('The till app is not running (its connection closed).');
        reject(gone);
        for (const call of pending.values()) call.reject(gone);
        pending.clear();
        if (options.reconnectMs !== undefined)
          page.setTimeout(() => void connect().catch(() => undefined), options.reconnectMs);
      });
    });
    return connection;
  }

  function receive(data: unknown): void {
    let message: unknown;
    try {
      message = typeof data === 'string' ? JSON.parse(data) : null;
    } catch {
      return;
    }
    if (!isRecord(message)) return;
    if (typeof message.push === 'string') {
      for (const listener of listeners.get(message.push) ?? []) listener(message.payload);
      return;
    }
    const call = typeof message.id === 'number' ? pending.get(message.id) : undefined;
    if (!call) return;
    pending.delete(message.id as number);
    if ('result' in message) call.resolve(message.result);
    else call.reject(new Error(typeof message.refused === 'string' ? message.refused : 'Refused.'));
  }

  // Connected at once, so that pushes sent before the page's first call reach it.
  void connect().catch(() => undefined);

  return {
    async invoke(channel, payload) {
      const socket = await connect();
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        socket.send(JSON.stringify({ id, channel, payload }));
      });
    },
    onPush(channel, listener) {
      if (!options.pushChannels.includes(channel)) throw new Error(`No push channel ${channel}.`);
      const heard = listeners.get(channel) ?? new Set();
      listeners.set(channel, heard.add(listener));
      return () => void heard.delete(listener);
    },
  };
}
