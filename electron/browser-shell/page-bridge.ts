import { LINK_PUSH_CHANNEL, type Channel } from '../../common/contract';
import { isRecord } from '../../common/is-record';
import { createWindowTill } from '../../common/window-till';

// The browser shell's preload: runs in the page (bundled by `page-bridge-bundle.ts`, loaded by
// a classic script before the app's module), and gives it the same `window.till` the Electron
// preload gives, built by the same `createWindowTill`, over the shell's WebSocket instead of IPC.
// As in the preload, nothing else is exposed: no socket, no generic send or listen.
//
// This file is type-checked with the main process's Node settings; the few page APIs it uses
// are declared here rather than pulling the DOM's types into electron/.

interface PageSocket {
  readonly readyState: number;
  send(data: string): void;
  addEventListener(type: 'open' | 'close', listener: () => void): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
}
interface PageGlobals {
  location: { host: string; pathname: string };
  WebSocket: new (url: string) => PageSocket;
}

const page = globalThis as unknown as PageGlobals;
// The page lives at /<secret>/…; the socket needs the same secret (see access-guard.ts).
const secret = page.location.pathname.split('/')[1] ?? '';
const SOCKET_URL = `ws://${page.location.host}/${secret}/__till/socket`;

type Pending = { resolve(result: unknown): void; reject(error: Error): void };
const pending = new Map<number, Pending>();
const linkListeners = new Set<(payload: unknown) => void>();
let nextId = 1;
let connection: Promise<PageSocket> | null = null;

/** The open socket, opening one if there is none: after the shell restarts, the next call reconnects. */
function connect(): Promise<PageSocket> {
  connection ??= new Promise<PageSocket>((resolve, reject) => {
    const socket = new page.WebSocket(SOCKET_URL);
    socket.addEventListener('open', () => resolve(socket));
    socket.addEventListener('message', (event) => receive(event.data));
    socket.addEventListener('close', () => {
      connection = null;
      const gone = new Error('The till app is not running (its connection closed).');
      reject(gone);
      for (const call of pending.values()) call.reject(gone);
      pending.clear();
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
  if (message.push === LINK_PUSH_CHANNEL) {
    for (const listener of linkListeners) listener(message.payload);
    return;
  }
  const call = typeof message.id === 'number' ? pending.get(message.id) : undefined;
  if (!call) return;
  pending.delete(message.id as number);
  if ('result' in message) call.resolve(message.result);
  else call.reject(new Error(typeof message.refused === 'string' ? message.refused : 'Refused.'));
}

async function invoke(channel: Channel, payload?: unknown): Promise<unknown> {
  const socket = await connect();
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    socket.send(JSON.stringify({ id, channel, payload }));
  });
}

Object.defineProperty(globalThis, 'till', {
  value: createWindowTill({
    invoke,
    onLinkPush: (listener) => {
      linkListeners.add(listener);
      return () => void linkListeners.delete(listener);
    },
  }),
  enumerable: true,
  writable: false,
  configurable: false,
});

// Connected at once, so that links pushed before the page's first call reach it.
void connect().catch(() => undefined);
