/**
 * The client for whatever the till talks to right now: one `LoyaltyApi` per service address
 * and key, made again when either changes, and one estimate of the service's clock that
 * every answer refines (a new key for the same service keeps it; another service starts
 * its own).
 */
import type { Failure } from '../../common/contract';
import type { Logger } from '../log/log';
import { createLoyaltyApi, type LoyaltyApi, type ServiceTarget } from './loyalty-api';
import { ServiceClock } from './service-clock';

export interface ServiceConnectionOptions {
  /** What the till talks to now (the demo's service or the configured one), or why it talks to none. */
  target: () => Promise<ServiceTarget | Failure>;
  timeoutMs: number;
  log: Logger;
  /** The estimate of the service's clock; tests inject one with their own clocks. */
  clock?: ServiceClock;
  /** Waits before a GET is retried; a real timer by default. */
  retrySleep?: (ms: number) => Promise<void>;
}

export interface ServiceConnection {
  /** The client for the service the till talks to now, or why there is none. */
  current(): Promise<{ api: LoyaltyApi; target: ServiceTarget } | Failure>;
  /** The estimate of the clock of the service last talked to. */
  clock(): ServiceClock;
  /** Drops the client, so the next call makes one for the target of then (leaving the demo). */
  forget(): void;
}

export function createServiceConnection(options: ServiceConnectionOptions): ServiceConnection {
  const { timeoutMs, log } = options;
  let clock = options.clock ?? new ServiceClock();
  let clockFor: string | null = null;
  let cached: { id: string; api: LoyaltyApi } | null = null;

  return {
    async current() {
      const target = await options.target();
      if ('ok' in target) return target;
      const id = `${target.baseUrl}\n${target.apiKey}`;
      if (cached?.id !== id) {
        // Another service has another clock; a new key for the same service does not.
        if (clockFor !== null && clockFor !== target.baseUrl)
          clock = new ServiceClock({ monotonicNow: clock.monotonicNow, wallNow: clock.wallNow });
        clockFor = target.baseUrl;
        cached = {
          id,
          api: createLoyaltyApi(target, {
            timeoutMs,
            log,
            clock,
            ...(options.retrySleep ? { sleep: options.retrySleep } : {}),
          }),
        };
      }
      return { api: cached.api, target };
    },
    clock: () => clock,
    forget() {
      cached = null;
    },
  };
}
