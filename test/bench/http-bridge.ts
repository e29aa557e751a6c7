/**
 * The bench's bridge between the page and the main-process core. The page posts each call
 * to a shared worker (a structured clone, as Electron's IPC makes one); the worker POSTs it
 * on loopback, JSON both ways, and posts the answer back.
 *
 * Why this way, measured on the two-core bench machine:
 * - Playwright's bindings carry each call over the DevTools protocol, which cost a page of
 *   100 customers about 50 ms on the page's own thread.
 * - A POST from the page itself is a request the DevTools protocol reports (four or five
 *   events each, which Playwright turns into request and response objects on the Node
 *   thread the core also runs on): about 1 ms of that thread per call, and a few more of
 *   latency. Playwright does not attach to shared workers, so their requests are not reported.
 * - Request interception (`context.route`) paused every call for another round trip; the
 *   bench browser refuses other hosts with a proxy instead (refusing-proxy.ts).
 *
 * A loopback POST is still dearer than IPC, so the bench's fetch figures stay on the
 * cautious side, and the runner reports the bridge's share apart from the core's.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export const BRIDGE_PATH = '/__till-bridge';
/** Served beside the bench page. */
export const BRIDGE_WORKER_FILE = 'bridge-worker.js';

export type BridgeHandler = (channel: string, payload: unknown) => Promise<unknown>;

/** The shared worker: `{ id, channel, payload }` in, `{ id, result }` or `{ id, error }` out. */
export function bridgeWorkerScript(path: string): string {
  return `onconnect = (event) => {
  const port = event.ports[0];
  port.onmessage = async ({ data: { id, channel, payload } }) => {
    try {
      const response = await fetch(${JSON.stringify(path)}, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ channel, payload }),
      });
      const body = await response.json();
      port.postMessage(response.ok ? { id, result: body.result } : { id, error: body.error });
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

/** Answers a bridge POST: `{ channel, payload }` in, `{ result }` or `{ error }` out. */
export async function answerBridgeCall(
  request: IncomingMessage,
  response: ServerResponse,
  handler: BridgeHandler,
): Promise<void> {
  const reply = (status: number, body: unknown) => {
    const text = JSON.stringify(body);
    response.writeHead(status, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(text),
    });
    response.end(text);
  };
  if (request.method !== 'POST') return reply(405, { error: 'The bridge takes POST only.' });
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  let call: { channel?: unknown; payload?: unknown };
  try {
    call = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof call;
  } catch {
    return reply(400, { error: 'The bridge call is not JSON.' });
  }
  if (typeof call.channel !== 'string') return reply(400, { error: 'The bridge call names no channel.' });
  try {
    reply(200, { result: (await handler(call.channel, call.payload)) ?? null });
  } catch (error) {
    reply(500, { error: error instanceof Error ? error.message : String(error) });
  }
}
