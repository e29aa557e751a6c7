import { createTillDisplayApi, DISPLAY_PUSH_CHANNEL, type DisplayChannel } from '../../common/display-model';
import { isRecord } from '../../common/is-record';

// The customer display's page bridge in the browser shell: `window.tillDisplay` over the
// display's own socket, as the display preload builds it over IPC in Electron. It gives the
// page nothing else: no `window.till`, no socket, no generic send or listen.
//
// Type-checked with the main process's Node settings, like page-bridge.ts: the page APIs it
// uses are declared here.

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

const page = globalThis as unknown as PageGlobals;
const secret = page.location.pathname.split('/')[1] ?? '';
const SOCKET_URL = `ws://${page.location.host}/${secret}/__till/display-socket`;

const pending = new Map<number, { resolve(result: unknown): void; reject(error: Error): void }>();
const modelListeners = new Set<(payload: unknown) => void>();
let nextId = 1;
let connection: Promise<PageSocket> | null = null;

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
      // A display stays on for the whole day: it reconnects by itself to hear the next model.
      page.setTimeout(() => void connect().catch(() => undefined), 2000);
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
  if (message.push === DISPLAY_PUSH_CHANNEL) {
    for (const listener of modelListeners) listener(message.payload);
    return;
  }
  const call = typeof message.id === 'number' ? pending.get(message.id) : undefined;
  if (!call) return;
  pending.delete(message.id as number);
  if ('result' in message) call.resolve(message.result);
  else call.reject(new Error(typeof message.refused === 'string' ? message.refused : 'Refused.'));
}

async function invoke(channel: DisplayChannel, payload?: unknown): Promise<unknown> {
  const socket = await connect();
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    socket.send(JSON.stringify({ id, channel, payload }));
  });
}

Object.defineProperty(globalThis, 'tillDisplay', {
  value: createTillDisplayApi({
    invoke,
    onModelPush: (listener) => {
      modelListeners.add(listener);
      return () => void modelListeners.delete(listener);
    },
  }),
  enumerable: true,
  writable: false,
  configurable: false,
});

void connect().catch(() => undefined);
