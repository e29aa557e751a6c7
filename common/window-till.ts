import { createTillApi, type Invoke, type TillApi } from './contract';

/** What a shell gives its page: a way to call the main process, and the one thing it pushes. */
export interface PageTransport {
  /** Calls a channel and resolves with its handler's answer: IPC in Electron, a WebSocket in the browser shell. */
  invoke: Invoke;
  /** Calls `listener` with the payload of every link push (never a transport event); returns the unsubscribe. */
  onLinkPush(listener: (payload: unknown) => void): () => void;
}

/**
 * `window.till` as both shells build it, the Electron preload and the browser shell's page
 * bridge: the operations of `createTillApi` over the shell's transport, and link pushes as the
 * only thing the page can listen to. Nothing of the transport itself reaches the page.
 */
export function createWindowTill(transport: PageTransport): TillApi {
  return createTillApi(transport.invoke, (_channel, listener) => transport.onLinkPush(listener));
}
