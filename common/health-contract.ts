/**
 * The till's health (docs/operations.md, "Watching the tills"): what `loyalty-till --health`
 * prints, what `health.json` in the user-data folder holds, and what Settings' "About this
 * till" shows, in one shape. Nothing personal and nothing secret: counts, times, states,
 * names of tills and the service's address.
 */
import type { ConnectionMode } from './settings-contract';

/** The format of the report; a field is only ever added to version 1. */
export const HEALTH_REPORT_VERSION = 1;

/** 0 healthy, 1 needs attention, 2 could not tell: the exit code of `--health`. */
export type HealthExitCode = 0 | 1 | 2;
export type HealthStatus = 'healthy' | 'attention' | 'unknown';

/** Why the till needs attention (exit 1) or why its health could not be told (exit 2). */
export type HealthReasonCode =
  // needs attention
  | 'not_set_up'
  | 'demo_mode'
  | 'waiting_too_long'
  | 'failed_unacknowledged'
  | 'conflict_unacknowledged'
  | 'cache_stale'
  | 'cache_never_refreshed'
  | 'policy_refused'
  | 'offline_too_long'
  // could not tell
  | 'no_folder'
  | 'outbox_unreadable'
  | 'policy_unread'
  | 'check_failed';

export interface HealthReason {
  code: HealthReasonCode;
  /** The same in English, with its figures, for a fleet tool's report. */
  detail: string;
}

/** What makes a till "needs attention"; each can be set by the organisation's policy (`health`). */
export interface HealthThresholds {
  /** A queued item (redemption, registration) still waiting after this many hours. */
  waitingHours: number;
  /** A failed or conflicting item nobody has acknowledged after this many hours (0: at once). */
  unacknowledgedHours: number;
  /** No complete refresh of the offline cache for this many days. */
  refreshDays: number;
  /** The service unreachable for this many hours. */
  offlineHours: number;
}

export type ConnectionState = 'online' | 'offline' | 'unknown';

export interface HealthReport {
  healthCheck: typeof HEALTH_REPORT_VERSION;
  status: HealthStatus;
  exitCode: HealthExitCode;
  reasons: HealthReason[];
  /** When these facts were put together (ISO). */
  checkedAt: string;
  /** When the running till last recorded what only it can know (connection, cache, storage, updates); null: never. */
  recordedAt: string | null;
  till: {
    /** The till's name as Settings has it (the policy's, where it sets one). */
    name: string | null;
    /** The computer's name. */
    machine: string;
    /** An id the help desk can quote (`LT-XXXX-XXXX`), made at the till's first start; null before. */
    id: string | null;
    version: string;
    /** Which shell runs it: the Electron app, or the browser shell. */
    shell: 'electron' | 'browser';
  };
  /** The service the till talks to, and its programme: never the key. */
  service: {
    mode: ConnectionMode;
    baseUrl: string | null;
    programId: string | null;
    branchId: string | null;
    keySet: boolean;
  };
  /** The service as the till's own calls found it: `since` is when it last changed. */
  connection: { state: ConnectionState; since: string | null };
  /** The main process's copy of the outbox; null when it could not be read. */
  outbox: {
    waiting: number;
    failed: number;
    conflicts: number;
    /** The oldest item still in the outbox, whatever its state (ISO, the till's clock). */
    oldestQueuedAt: string | null;
    oldestAgeHours: number | null;
    /** Lines of the copy that could not be read (counted, left out). */
    unreadableLines: number;
  } | null;
  /** The offline cache, as the page last said. */
  cache: { lastCompleteRefreshAt: string | null; customers: number | null };
  /** The organisation's policy: applied, refused and why (in English), none, or not read in time. */
  policy: { state: 'none' | 'applied' | 'refused' | 'unread'; origin: string | null; problem: string | null };
  /** The shop's other tills this till heard from in the last shift (8 hours). */
  shopLedger: { enabled: boolean; tillsHeardThisShift: string[]; tillsKnown: number };
  /** Whether the browser keeps the page's storage for good; null: it cannot say, or the page has not said. */
  storage: { persisted: boolean | null };
  updates: { enabled: boolean; channel: string; lastCheckAt: string | null };
  thresholds: HealthThresholds;
}

/** `noteCache`: the offline cache as the page knows it, after each complete refresh and at start. */
export interface CacheReport {
  /** When the last complete refresh started (ISO); null: never. */
  lastCompleteRefreshAt: string | null;
  /** Customers in the cache as of that refresh; null: not known. */
  customers: number | null;
}
