/**
 * The bench's bridge between the page and the main-process core: one POST on loopback per
 * call, JSON both ways. Playwright's bindings carry each call over the DevTools protocol,
 * which cost a page of 100 customers about 50 ms on the page's own thread; Electron's IPC
 * (a structured clone over Mojo) costs a fraction of a millisecond. A loopback POST is
 * still dearer than IPC, so the bench's fetch figures stay on the cautious side, and the
 * runner reports the bridge's share apart from the core's.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export const BRIDGE_PATH = '/__till-bridge';

export type BridgeHandler = (channel: string, payload: unknown) => Promise<unknown>;

/** `window.tillInvoke` for the page: what `bridgeInitScript` calls for every operation. */
export function httpInvokeScript(path: string): string {
  return `Object.defineProperty(window, 'tillInvoke', {
  value: async (channel, payload) => {
    const response = await fetch(${JSON.stringify(path)}, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ channel, payload }),
    });
    const body = await response.json();
    if (!response.ok) throw new Error(body.error);
    return body.result;
  },
});`;
}

/** Answers a bridge POST: `{ channel, payload }` in, `{ result }` or `{ error }` out. */
export async function answerBridgeCall(
  request: IncomingMessage,
  response: ServerResponse,
  handler: BridgeHandler,
): Promise<void> {
  const reply = (status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
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
