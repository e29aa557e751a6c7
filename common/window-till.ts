import { createTillApi, PAGE_PUSH_CHANNELS, type Invoke, type PagePushChannel, type TillApi } from './contract';

/** What a shell gives its page: a way to call the main process, and the things it pushes. */
export interface PageTransport {
  /** Calls a channel and resolves with its handler's answer: IPC in Electron, a WebSocket in the browser shell. */
  invoke: Invoke;
  /**
   * Calls `listener` with the payload of every push on `channel` (never a transport event);
   * returns the unsubscribe. Only the page's push channels are ever asked for.
   */
  onPush(channel: PagePushChannel, listener: (payload: unknown) => void): () => void;
}

/** The page's push channels, for a transport that checks what it is asked to listen on. */
export const PAGE_PUSH_CHANNEL_LIST: readonly PagePushChannel[] = Object.values(PAGE_PUSH_CHANNELS);

/**
 * `window.till` as both shells build it, the Electron preload and the browser shell's page
 * bridge: the operations of `createTillApi` over the shell's transport, and the page's push
 * channels as the only things the page can listen to. Nothing of the transport reaches the page.
 */
export function createWindowTill(transport: PageTransport): TillApi {
  return createTillApi(transport.invoke, (channel, listener) => {
    if (!PAGE_PUSH_CHANNEL_LIST.includes(channel)) throw new Error(`No push channel ${String(channel)}.`);
    return transport.onPush(channel, listener);
  });
}
