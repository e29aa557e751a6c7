import type { WebSocket } from 'ws';
import { CHANNELS, type Channel, type PagePushChannel } from '../../common/contract';
import { isRecord } from '../../common/is-record';
import type { AppCore } from '../bridge/app-core';
import type { PageDoor, PageSend } from '../app-page/page-door';
import { describeError } from '../log/log';

/**
 * The wire between the page (`page-bridge.ts`) and the handler table, one JSON message per
 * WebSocket frame:
 *
 * - page to shell: `{ id, channel, payload }`, as `ipcRenderer.invoke(channel, payload)`;
 * - shell to page: `{ id, result }`, the handler's answer (always data), or `{ id, refused }`
 *   for a channel that does not exist (Electron rejects the invoke too);
 * - shell to page, unasked: `{ push, payload }` on a page push channel, as `webContents.send`.
 */
export type PageToShell = { id: number; channel: string; payload?: unknown };
export type ShellToPage =
  { id: number; result: unknown } | { id: number; refused: string } | { push: PagePushChannel; payload: unknown };

/**
 * Larger than any payload the bridge accepts: the largest is a CSV export (at most
 * `MAX_EXPORT_CHARS` characters, up to three bytes each in UTF-8, escaped in JSON).
 */
export const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

const KNOWN_CHANNELS = new Set<string>(Object.values(CHANNELS));

/**
 * Serves the bridge on one page's socket. `senderUrl` is the page's origin, already checked by
 * the access guard; the handlers check it again as they check Electron's sender frame, and
 * validate every payload themselves. A message that is not a request at all closes the socket:
 * only a page that is not the app's would send one.
 */
export function serveBridgeSocket(
  socket: WebSocket,
  options: { core: AppCore; page: PageHolder; senderUrl: string },
): void {
  const { core, page, senderUrl } = options;
  const send = (message: ShellToPage) => {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
  };

  const release = page.attach((push, payload) => send({ push, payload }));
  socket.on('close', release);
  // A message over the limit (or a broken frame): ws has already closed this socket, with
  // 1009 or 1002; without this listener the error would reach the process's own handler.
  socket.on('error', (error) => core.log.warn(`Closed a bridge socket: ${describeError(error)}.`));

  socket.on('message', (data, isBinary) => {
    const request = isBinary ? null : readRequest(data.toString());
    if (!request) {
      core.log.warn('Closed a bridge socket that sent something other than a request.');
      socket.close(1008, 'Not a bridge request');
      return;
    }
    if (!KNOWN_CHANNELS.has(request.channel)) {
      send({ id: request.id, refused: 'No such channel.' });
      return;
    }
    core.handlers[request.channel as Channel]({ url: senderUrl }, request.payload).then(
      (result) => send({ id: request.id, result }),
      // The handlers answer data and never throw; should one, the page is not left waiting.
      (error: unknown) => {
        core.log.error(`A bridge handler threw: ${describeError(error)}`);
        send({ id: request.id, refused: 'The till app failed to answer.' });
      },
    );
  });
}

export interface PageHolder {
  /** Pushes to this page from now on; the function returned lets go, unless a newer page took over. */
  attach(send: PageSend): () => void;
}

/**
 * The main process pushes to one page. As the Electron window does on a reload, the newest
 * page takes the pushes over (a reload here is a new socket, as is a second tab); a page going
 * away lets go only if it still held them, so an old tab closing does not silence the new one.
 */
export function createPageHolder(door: PageDoor): PageHolder {
  let holder: object | null = null;
  return {
    attach(send) {
      const me = {};
      holder = me;
      door.attach(send);
      return () => {
        if (holder !== me) return;
        holder = null;
        door.detach();
      };
    },
  };
}

export function readRequest(text: string): PageToShell | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isRecord(parsed) || typeof parsed.channel !== 'string') return null;
  const { id } = parsed;
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 0) return null;
  return { id, channel: parsed.channel, payload: parsed.payload };
}
