import axios, { type AxiosInstance } from 'axios';
import type { LinkOutcome } from '../../common/contract';
import { describeError, type Logger } from '../log/log';

/**
 * The answer back to the POS: after a redemption that a link prepared, the outcome is
 * POSTed as JSON to the callback URL from Settings (never from a link). Its own axios
 * instance: no Authorization header, no API key, no redirects followed. A POS that is not
 * listening yet (restarting, busy) is tried again a few times, then the outcome is logged
 * as undelivered; the redemption itself is never affected.
 */

/** The body the POS receives (documented in docs/pos-integration.md). */
export interface PosCallbackBody {
  event: 'loyalty-till.redemption';
  link_id: string;
  outcome: LinkOutcome;
  reward_code: string;
  order_reference: string | null;
  /** The card's points after the redemption; null when not known (queued, refused). */
  points_balance: number | null;
  card_serial_number: string | null;
  message: string | null;
  till_name: string;
  /** Who was at the till (the link's cashier or the one chosen on the till); null when nobody was named. */
  cashier: string | null;
  sent_at: string;
}

export type DeliveryResult = 'delivered' | 'gave_up' | 'not_set';

export interface PosCallback {
  /** Sends in the background; the promise settles when delivered or given up (for tests). */
  send(body: Omit<PosCallbackBody, 'sent_at'>): { callback: 'sending' | 'not_set'; delivery: Promise<DeliveryResult> };
}

export interface PosCallbackOptions {
  /** The callback URL as Settings holds it right now; null when none is set. */
  url: () => string | null;
  log: Logger;
  /** Deadline of one attempt. */
  timeoutMs?: number;
  /** Waits before each retry; their count is the number of retries. */
  retryDelaysMs?: readonly number[];
  /** Strings that must never leave the till (the API key), checked on every body as a last line of defence. */
  secrets?: () => readonly string[];
}

export const DEFAULT_RETRY_DELAYS_MS = Object.freeze([1000, 3000, 10_000, 30_000]);

export function createPosCallback(options: PosCallbackOptions): PosCallback {
  const { log } = options;
  const timeoutMs = options.timeoutMs ?? 5000;
  const delays = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  const http: AxiosInstance = axios.create({
    adapter: 'http',
    timeout: timeoutMs,
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/plain, */*' },
    maxRedirects: 0,
    // Env proxies are for the service; the POS is on this machine or named exactly.
    proxy: false,
    responseType: 'text',
    transformResponse: [(data: unknown) => data],
    validateStatus: () => true,
    maxContentLength: 64 * 1024,
  });

  /** `ok` on 2xx; `refused` when repeating will not change the answer (a 4xx); otherwise `retry`. */
  async function attempt(url: string, json: string): Promise<'ok' | 'retry' | 'refused'> {
    try {
      const response = await http.post(url, json, { signal: AbortSignal.timeout(timeoutMs) });
      if (response.status >= 200 && response.status < 300) return 'ok';
      if (response.status === 408 || response.status === 429 || response.status >= 500) return 'retry';
      log.warn(`The POS callback refused the outcome with HTTP ${response.status}; it is not sent again.`);
      return 'refused';
    } catch (error) {
      log.warn(
        `The POS callback could not be reached (${axios.isAxiosError(error) ? (error.code ?? 'error') : describeError(error)}).`,
      );
      return 'retry';
    }
  }

  async function deliver(url: string, body: PosCallbackBody): Promise<DeliveryResult> {
    const json = JSON.stringify(body);
    for (const secret of options.secrets?.() ?? []) {
      if (secret.length >= 4 && json.includes(secret)) {
        log.error('The POS callback was not sent: its body contained a secret.');
        return 'gave_up';
      }
    }
    for (let tries = 0; ; tries += 1) {
      const outcome = await attempt(url, json);
      if (outcome === 'ok') {
        log.info(`Outcome of link ${body.link_id} (${body.outcome}) delivered to the POS callback.`);
        return 'delivered';
      }
      if (outcome === 'refused') return 'gave_up';
      const wait = delays[tries];
      if (wait === undefined) {
        log.warn(
          `Outcome of link ${body.link_id} (${body.outcome}) not delivered to the POS callback after ${tries + 1} tries.`,
        );
        return 'gave_up';
      }
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }

  return {
    send(body) {
      const url = options.url();
      if (!url) return { callback: 'not_set', delivery: Promise.resolve('not_set') };
      const delivery = deliver(url, { ...body, sent_at: new Date().toISOString() }).catch((error) => {
        log.error(`The POS callback failed: ${describeError(error)}`);
        return 'gave_up' as const;
      });
      return { callback: 'sending', delivery };
    },
  };
}
