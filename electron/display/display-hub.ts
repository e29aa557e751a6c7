import {
  DISPLAY_CHANNELS,
  DISPLAY_ENTRIES_PER_MINUTE,
  type CustomerPhoneEntry,
  type DisplayChannel,
  type DisplayEntryReceipt,
  type DisplayModel,
} from '../../common/display-model';
import type { Logger } from '../log/log';
import { createEntryRateLimit } from './entry-rate-limit';
import { displayPhoneEntrySchema } from './display-model-schema';

export type DisplaySender = { url: string } | null | undefined;
export type DisplayHandlers = Record<DisplayChannel, (sender: DisplaySender, payload: unknown) => Promise<unknown>>;

/**
 * The customer display's side of the main process: the till's page sends it the sanitised model
 * (already checked by `displayModelSchema`), every display attached gets it pushed, and what the
 * customer types on a display's keypad goes to the till's page, at most five entries a minute.
 * It keeps the latest model in memory only, for a display that opens or reloads.
 */
export interface DisplayHub {
  /** The till's new model: pushed to every attached display; answers how many there are. */
  show(model: DisplayModel): number;
  /** A display page listens from now on; the function returned lets go. */
  attach(push: (model: DisplayModel) => void): () => void;
  /** The display pages' channels, each checking its sender and payload. */
  handlers: DisplayHandlers;
}

export interface DisplayHubOptions {
  log: Logger;
  /** Hands a keypad entry to the till's page (its own push channel); false when no page listens. */
  toTill: (entry: CustomerPhoneEntry) => boolean;
  /** Whether a call came from a display page of the app (its origin and path). */
  isDisplaySender: (sender: DisplaySender) => boolean;
  now?: () => number;
}

export function createDisplayHub(options: DisplayHubOptions): DisplayHub {
  const { log, toTill, isDisplaySender } = options;
  const now = options.now ?? Date.now;
  const limit = createEntryRateLimit({ perMinute: DISPLAY_ENTRIES_PER_MINUTE, now });
  const displays = new Set<(model: DisplayModel) => void>();
  let latest: DisplayModel | null = null;

  function enterPhone(payload: unknown): DisplayEntryReceipt {
    const parsed = displayPhoneEntrySchema.safeParse(payload);
    if (!parsed.success) return { accepted: false, reason: 'invalid', waitSeconds: 0 };
    const wait = limit.take();
    if (wait > 0) {
      log.warn('Refused a phone typed on the customer display: more than five entries a minute.');
      return { accepted: false, reason: 'wait', waitSeconds: wait };
    }
    // The digits go to the page and nowhere else: no log line, no file.
    const handed = toTill({ digits: parsed.data.digits, receivedAt: new Date(now()).toISOString() });
    return handed ? { accepted: true } : { accepted: false, reason: 'no_till', waitSeconds: 0 };
  }

  const guarded =
    (run: (payload: unknown) => unknown) =>
    async (sender: DisplaySender, payload: unknown): Promise<unknown> => {
      if (!isDisplaySender(sender)) {
        log.warn("Refused a customer display call that did not come from the display's own page.");
        // The same refusal for both channels: a display reads anything but a model as none.
        return { accepted: false, reason: 'forbidden_sender', waitSeconds: 0 };
      }
      return run(payload);
    };

  return {
    show(model) {
      latest = model;
      for (const push of displays) {
        try {
          push(model);
        } catch (error) {
          log.warn(
            `A customer display could not be updated: ${error instanceof Error ? error.message : String(error)}`,
          );
        }
      }
      return displays.size;
    },
    attach(push) {
      displays.add(push);
      return () => void displays.delete(push);
    },
    handlers: {
      [DISPLAY_CHANNELS.currentModel]: guarded(() => latest),
      [DISPLAY_CHANNELS.enterPhone]: guarded(enterPhone),
    },
  };
}
