/**
 * The till's page, as the main process pushes to it unasked: the shell attaches how it sends
 * (`webContents.send` in Electron, the page's socket in the browser shell), and the page's start
 * (its first `takeLinkMessages`) says that it listens. Each kind of push has a channel of its own
 * (`PAGE_PUSH_CHANNELS`), so the page subscribes to what it handles and to nothing else.
 */
import type { PagePushChannel, PagePushes } from '../../common/contract';
import { describeError, type Logger } from '../log/log';

export type PageSend = <C extends PagePushChannel>(channel: C, payload: PagePushes[C]) => void;

export interface PageDoor {
  /** A page is there to be sent to; it listens only once it says so (`listening`). */
  attach(send: PageSend): void;
  /** The page went away or is reloading: nothing is pushed until a page listens again. */
  detach(): void;
  /** The attached page has subscribed to its pushes. False when no page is attached. */
  listening(): boolean;
  /** The attached page says it listens (it took what waited for it). */
  heard(): void;
  /** Pushes to the page that listens; false, and nothing sent, when none does or the send fails. */
  push<C extends PagePushChannel>(channel: C, payload: PagePushes[C]): boolean;
}

export function createPageDoor(options: { log: Logger }): PageDoor {
  let send: PageSend | null = null;
  let listens = false;
  return {
    attach(next) {
      send = next;
      listens = false;
    },
    detach() {
      send = null;
      listens = false;
    },
    listening: () => send !== null && listens,
    heard() {
      listens = send !== null;
    },
    push(channel, payload) {
      if (!send || !listens) return false;
      try {
        send(channel, payload);
        return true;
      } catch (error) {
        // The page is gone mid-send (a window closing): it says so again when a new one listens.
        options.log.warn(`Could not push to the till's page on ${channel}: ${describeError(error)}`);
        listens = false;
        return false;
      }
    },
  };
}
