/**
 * The bench's bridge between the page and the main-process core. The page posts each call
 * to a shared worker (a structured clone, as Electron's IPC makes one); the worker sends it
 * over one WebSocket on loopback, JSON both ways, and posts the answer back.
 *
 * Why this way, measured on the two-core bench machine:
 * - Playwright's bindings carry each call over the DevTools protocol, which cost a page of
 *   100 customers about 50 ms on the page's own thread.
 * - A POST from the page itself is a request the DevTools protocol reports (four or five
 *   events each, which Playwright turns into request and response objects on the Node
 *   thread the core also runs on): about 1 ms of that thread per call, and a few more of
 *   latency. Playwright does not attach to shared workers, so their traffic is not reported.
 * - A POST from the shared worker was a whole HTTP request each call: Chromium's network
 *   service, the worker's fetch and Node's HTTP server cost about 5 ms of processor a call
 *   between them on a machine whose system calls are dear, most of an unchanged refresh's
 *   time (1,004 calls of 304). A message on an open WebSocket costs a fraction of that.
 * - Request interception (`context.route`) paused every call for another round trip; the
 *   bench browser refuses other hosts with a proxy instead (refusing-proxy.ts).
 *
 * A loopback WebSocket is still dearer than IPC, so the bench's fetch figures stay on the
 * cautious side, and the runner reports the bridge's share apart from the core's.
 */
import type { Server } from 'node:http';
import { WebSocketServer, type RawData } from 'ws';

export const BRIDGE_PATH = '/__till-bridge';
/** Served beside the bench page. */
export const BRIDGE_WORKER_FILE = 'bridge-worker.js';

export type BridgeHandler = (channel: string, payload: unknown) => Promise<unknown>;

/**
 * The shared worker: `{ id, channel, payload }` in from a page's port, sent on the socket
 * under an id of the worker's own (several pages may share it); `{ id, result }` or
 * `{ id, error }` back to that port. Calls made before the socket opens wait for it.
 */
export function bridgeWorkerScript(path: string): string {
  return `const calls = new Map();
let nextId = 0;
let socket = null;
let opened = null;
const failAll = (why) => {
  for (const { port, id } of calls.values()) port.postMessage({ id, error: why });
  calls.clear();
  socket = null;
};
const open = () => {
  socket = new WebSocket(new URL(${JSON.stringify(path)}, location.href).href.replace(/^http/, 'ws'));
  opened = new Promise((resolve, reject) => {
    socket.onopen = resolve;
    socket.onerror = () => reject(new Error('The bridge socket failed.'));
  });
  socket.onmessage = ({ data }) => {
    const answer = JSON.parse(data);
    const call = calls.get(answer.id);
    if (!call) return;
    calls.delete(answer.id);
    call.port.postMessage('error' in answer ? { id: call.id, error: answer.error } : { id: call.id, result: answer.result });
  };
  socket.onclose = () => failAll('The bridge socket closed.');
};
onconnect = (event) => {
  const port = event.ports[0];
  port.onmessage = async ({ data: { id, channel, payload } }) => {
    try {
      if (!socket) open();
      await opened;
      const key = nextId++;
      calls.set(key, { port, id });
      socket.send(JSON.stringify({ id: key, channel, payload }));
    } catch (error) {
      port.postMessage({ id, error: String(error) });
    }
  };
};
`;
}

/** `window.tillInvoke` for the page: what `bridgeInitScript` calls for every operation. */
export function invokeScript(workerFile: string): string {
  return `(() => {
  let bridge = null;
  // Made on the first call: the init script also runs in about:blank, where it cannot be.
  const connect = () => {
    const worker = new SharedWorker(${JSON.stringify(`/${workerFile}`)});
    const pending = new Map();
    let nextId = 0;
    const failAll = (why) => {
      for (const { reject } of pending.values()) reject(new Error(why));
      pending.clear();
      bridge = null;
    };
    worker.onerror = () => failAll('The bridge worker failed.');
    worker.port.onmessageerror = () => failAll('A bridge answer could not be read.');
    worker.port.onmessage = ({ data }) => {
      const call = pending.get(data.id);
      if (!call) return;
      pending.delete(data.id);
      if ('error' in data) call.reject(new Error(data.error));
      else call.resolve(data.result);
    };
    return (channel, payload) =>
      new Promise((resolve, reject) => {
        const id = nextId++;
        pending.set(id, { resolve, reject });
        worker.port.postMessage({ id, channel, payload });
      });
  };
  Object.defineProperty(window, 'tillInvoke', {
    value: (channel, payload) => (bridge ??= connect())(channel, payload),
  });
})();`;
}

/**
 * Answers bridge calls on WebSockets at `path` of `server`: `{ id, channel, payload }` in,
 * `{ id, result }` or `{ id, error }` out, each call answered when its handler ends.
 */
export function answerBridgeCalls(server: Server, path: string, handler: BridgeHandler): { close(): void } {
  const sockets = new WebSocketServer({ server, path });
  sockets.on('connection', (socket) => {
    socket.on('message', (data: RawData) => {
      void (async () => {
        let call: { id?: unknown; channel?: unknown; payload?: unknown };
        try {
          call = JSON.parse(data.toString()) as typeof call;
        } catch {
          return socket.close(1003, 'The bridge call is not JSON.');
        }
        const { id } = call;
        if (typeof call.channel !== 'string')
          return socket.send(JSON.stringify({ id, error: 'The bridge call names no channel.' }));
        try {
          socket.send(JSON.stringify({ id, result: (await handler(call.channel, call.payload)) ?? null }));
        } catch (error) {
          socket.send(JSON.stringify({ id, error: error instanceof Error ? error.message : String(error) }));
        }
      })();
    });
  });
  return { close: () => sockets.close() };
}
