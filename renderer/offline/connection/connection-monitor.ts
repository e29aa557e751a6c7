/**
 * Whether the service can be reached, judged from real outcomes: a call that could not
 * reach it (offline, timeout) marks the till offline; any answer from the service marks it
 * online. While offline, a light probe (`connectionStatus`) runs with back-off. The
 * browser's `online`/`offline` events are hints only: a LAN without internet says
 * "online", and the service may be down while the network is up.
 */
import type { BridgeError, ConnectionStatus, Result, TillApi } from '../../../common/contract';
import { backoffDelay, type BackoffPolicy } from './backoff';
import { isUnreachable } from './failure-kinds';
import type { OfflineReason } from '../../vocabulary/connection';

export type { OfflineReason };

export type ConnectionState = 'unknown' | 'online' | 'offline';

/**
 * Why the till is offline, as a reason the view layer words (lib/connection-words.ts):
 * the browser said the network went, nobody said why, or someone did (`said`: the bridge's
 * message, made by the main process in the interface language, or the service's), passed on
 * as said.
 */

/** What others said of a failure, kept as their words; nothing said is "unreachable". */
export function saidOrUnreachable(message: string | null | undefined): OfflineReason {
  return message ? { code: 'said', message } : { code: 'unreachable' };
}

export interface ConnectionSnapshot {
  state: ConnectionState;
  /** When the state last changed. */
  since: string;
  /** Why the till is offline: a reason, worded when shown. */
  reason: OfflineReason | null;
  /** When the next probe runs, while offline. */
  nextProbeAt: string | null;
}

export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface ConnectionMonitorOptions {
  probe: () => Promise<Result<ConnectionStatus>>;
  now?: () => Date;
  random?: () => number;
  timers?: Timers;
  /** Where `online` / `offline` events come from (the window); none in tests. */
  events?: Pick<EventTarget, 'addEventListener' | 'removeEventListener'>;
  backoff?: BackoffPolicy;
}

const DEFAULT_PROBE_BACKOFF: BackoffPolicy = { baseMs: 2_000, maxMs: 60_000 };

export const defaultTimers: Timers = {
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export class ConnectionMonitor {
  private snapshot: ConnectionSnapshot;
  private readonly listeners = new Set<(snapshot: ConnectionSnapshot) => void>();
  private readonly now: () => Date;
  private readonly random: () => number;
  private readonly timers: Timers;
  private readonly backoff: BackoffPolicy;
  private probeTimer: unknown = null;
  private probeFailures = 0;
  private started = false;
  private readonly onBrowserOnline = () => void this.probeNow();
  private readonly onBrowserOffline = () => this.markOffline({ code: 'lost_network' });

  constructor(private readonly options: ConnectionMonitorOptions) {
    this.now = options.now ?? (() => new Date());
    this.random = options.random ?? Math.random;
    this.timers = options.timers ?? defaultTimers;
    this.backoff = options.backoff ?? DEFAULT_PROBE_BACKOFF;
    this.snapshot = { state: 'unknown', since: this.now().toISOString(), reason: null, nextProbeAt: null };
  }

  get state(): ConnectionState {
    return this.snapshot.state;
  }

  current(): ConnectionSnapshot {
    return { ...this.snapshot };
  }

  subscribe(listener: (snapshot: ConnectionSnapshot) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Learns from the outcome of any call to the service. */
  report(result: { ok: true } | { ok: false; error: BridgeError }): void {
    if (result.ok || !isUnreachable(result.error)) this.markOnline();
    else this.markOffline(saidOrUnreachable(result.error.message));
  }

  markOnline(): void {
    this.probeFailures = 0;
    this.cancelProbe();
    this.set({ state: 'online', reason: null, nextProbeAt: null });
  }

  markOffline(reason: OfflineReason): void {
    this.set({ state: 'offline', reason, nextProbeAt: this.snapshot.nextProbeAt });
    if (this.started && this.probeTimer === null) this.scheduleProbe();
  }

  /** Probes now; the result updates the state. */
  async probeNow(): Promise<ConnectionState> {
    this.cancelProbe();
    const result = await this.options.probe();
    if (result.ok && result.data.reachable === true) {
      this.markOnline();
    } else if (result.ok && result.data.reachable === null) {
      // Nothing configured: neither online nor offline.
      this.set({ state: 'unknown', reason: null, nextProbeAt: null });
    } else {
      this.probeFailures += 1;
      this.markOffline(saidOrUnreachable(result.ok ? result.data.error?.message : result.error.message));
    }
    return this.snapshot.state;
  }

  /** Starts listening for browser hints and probing while offline. */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.options.events?.addEventListener('online', this.onBrowserOnline);
    this.options.events?.addEventListener('offline', this.onBrowserOffline);
    if (this.snapshot.state !== 'online') this.scheduleProbe(0);
  }

  stop(): void {
    this.started = false;
    this.cancelProbe();
    this.options.events?.removeEventListener('online', this.onBrowserOnline);
    this.options.events?.removeEventListener('offline', this.onBrowserOffline);
  }

  private scheduleProbe(delayMs = backoffDelay(Math.max(1, this.probeFailures), this.backoff, this.random)): void {
    this.cancelProbe();
    const at = new Date(this.now().getTime() + delayMs).toISOString();
    this.snapshot = { ...this.snapshot, nextProbeAt: at };
    this.probeTimer = this.timers.setTimeout(() => {
      this.probeTimer = null;
      void this.probeNow();
    }, delayMs);
  }

  private cancelProbe(): void {
    if (this.probeTimer !== null) this.timers.clearTimeout(this.probeTimer);
    this.probeTimer = null;
  }

  private set(next: Omit<ConnectionSnapshot, 'since'>): void {
    const changed = next.state !== this.snapshot.state || !sameReason(next.reason, this.snapshot.reason);
    const since = next.state !== this.snapshot.state ? this.now().toISOString() : this.snapshot.since;
    this.snapshot = { ...next, since };
    if (changed) for (const listener of this.listeners) listener(this.current());
  }
}

/** Operations whose outcomes tell whether the service is reachable. */
const OBSERVED = [
  'searchCustomers',
  'getCustomer',
  'registerCustomer',
  'updateCustomer',
  'checkReward',
  'redeemReward',
] as const;

/** The same API, reporting every outcome of a service call to the monitor. */
export function observeApi(api: TillApi, monitor: ConnectionMonitor): TillApi {
  const observed: Record<string, unknown> = { ...api };
  for (const operation of OBSERVED) {
    const call = api[operation] as (payload: unknown) => Promise<Result<unknown>>;
    observed[operation] = async (payload: unknown) => {
      const result = await call(payload);
      monitor.report(result);
      return result;
    };
  }
  return Object.freeze(observed) as TillApi;
}

function sameReason(a: OfflineReason | null, b: OfflineReason | null): boolean {
  if (a === null || b === null) return a === b;
  return a.code === b.code && (a.code !== 'said' || a.message === (b as typeof a).message);
}
