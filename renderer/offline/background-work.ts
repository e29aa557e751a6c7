/**
 * What the till does in the background while the cashier works: the replay of the outbox
 * (at start, every few seconds while online, and when the connection returns) and the
 * complete refresh of the cache (when due by the schedule, or again a minute after one that
 * stopped). It never answers the cashier; the counter's operations do (counter-operations.ts).
 */
import type { ConnectionMonitor, Timers } from './connection/connection-monitor';
import type { Replayer } from './outbox/replayer';
import { refreshDue, type CacheRefresh, type RefreshProgress } from './refresh/cache-refresh';
import { DEFAULT_REFRESH_SCHEDULE, nextRefreshAt, type RefreshSchedule } from './refresh/refresh-schedule';

/** After a refresh stopped (offline, rejected key), wait this long before trying again. */
const REFRESH_RETRY_AFTER_STOP_MS = 60_000;

export interface BackgroundDeps {
  connection: ConnectionMonitor;
  replayer: Replayer;
  refresh: CacheRefresh;
  timers: Timers;
  now: () => Date;
  random: () => number;
  /** The refresh schedule of the moment (Settings). */
  schedule: () => RefreshSchedule | undefined;
  /** How often the replayer looks at the queue while online. */
  replayEveryMs: number;
  /** A complete refresh older than this is started again; without it, `schedule()` decides. */
  refreshEveryMs?: number;
}

export class BackgroundWork {
  /** This till's moment for the next refresh: its jitter is drawn once per completed refresh. */
  private planned: { after: string; jitter: number } | null = null;
  private refreshLoaded = false;
  private replayTimer: unknown = null;
  private unsubscribeConnection: (() => void) | null = null;

  constructor(private readonly deps: BackgroundDeps) {}

  /** Starts the replay loop and the refresh, and follows the connection: back online, both go. */
  start(): void {
    this.unsubscribeConnection = this.deps.connection.subscribe((snapshot) => {
      if (snapshot.state === 'online') {
        this.replaySoon();
        void this.refreshIfDue();
      }
    });
    this.scheduleReplay();
    this.replaySoon();
    void this.refreshIfDue();
  }

  stop(): void {
    if (this.replayTimer !== null) this.deps.timers.clearTimeout(this.replayTimer);
    this.replayTimer = null;
    this.unsubscribeConnection?.();
    this.unsubscribeConnection = null;
    this.deps.refresh.stop();
  }

  /** The replayer runs now, unless the service cannot be reached. */
  replaySoon(): void {
    if (!this.offlineNow()) void this.deps.replayer.runOnce();
  }

  /** Reads the refresh's stored progress (when it last completed) without starting one. */
  async loadRefreshProgress(): Promise<RefreshProgress> {
    const progress = await this.deps.refresh.load();
    this.refreshLoaded = true;
    return progress;
  }

  /** When this till's next complete refresh is planned; null before its first. */
  plannedRefreshAt(): Date | null {
    const last = this.deps.refresh.progress().lastCompleteRefreshAt;
    if (last === null) return null;
    return this.deps.refreshEveryMs !== undefined
      ? new Date(Date.parse(last) + this.deps.refreshEveryMs)
      : this.nextRefreshAfter(new Date(last));
  }

  private offlineNow(): boolean {
    return this.deps.connection.state === 'offline';
  }

  private nextRefreshAfter(last: Date): Date {
    if (this.planned?.after !== last.toISOString()) {
      this.planned = { after: last.toISOString(), jitter: this.deps.random() };
    }
    return nextRefreshAt(last, this.deps.schedule() ?? DEFAULT_REFRESH_SCHEDULE, this.planned.jitter);
  }

  private async refreshIfDue(): Promise<void> {
    if (this.offlineNow()) return;
    if (!this.refreshLoaded) {
      await this.deps.refresh.load();
      this.refreshLoaded = true;
    }
    const { refresh, now, refreshEveryMs } = this.deps;
    const nextAfter = refreshEveryMs ?? ((last: Date) => this.nextRefreshAfter(last));
    if (refreshDue(refresh.progress(), now(), nextAfter, REFRESH_RETRY_AFTER_STOP_MS)) void refresh.run();
  }

  private scheduleReplay(): void {
    this.replayTimer = this.deps.timers.setTimeout(() => {
      this.replaySoon();
      void this.refreshIfDue();
      this.scheduleReplay();
    }, this.deps.replayEveryMs);
  }
}
