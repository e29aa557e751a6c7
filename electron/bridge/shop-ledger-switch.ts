import { createHash } from 'node:crypto';
import type { Logger } from '../log/log';
import { deriveShopKeys } from '../shop-ledger/shop-secret';
import { createShopLedger, peerName, type ShopLedger } from '../shop-ledger/shop-ledger-service';
import type { PeerAddress } from '../shop-ledger/peer-transport';
import { parseShopPeer } from '../storage/settings';

/**
 * Starts, restarts and stops the till's shop ledger (docs/shop-ledger.md) as the settings
 * and the key change. Nothing it does can fail anything else: a ledger that cannot start
 * is logged in one line and the till works alone.
 */

/** What the ledger is started from; null when this till keeps no ledger. */
export interface ShopLedgerConfig {
  apiKey: string;
  baseUrl: string;
  branchId: string;
  programId: string | null;
  tillName: string;
  peers: readonly string[];
  port: number;
}

export interface ShopLedgerSwitch {
  /** Brings the ledger in line with `config`; updates run one at a time, in order, and never reject. */
  update(config: ShopLedgerConfig | null): Promise<void>;
  /** The ledger, once it listens; null while it starts, when off, or when it could not start. */
  running(): ShopLedger | null;
  /** Waits for the updates asked so far. */
  settled(): Promise<void>;
  /** Stops the ledger for good (the app is closing). */
  stop(): Promise<void>;
}

/** The one word of an error a log line may carry: a system error's code (EADDRINUSE) or the error's kind. */
export function errorKind(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && /^E[A-Z]{2,20}$/.test(code)) return code;
  return error instanceof Error ? error.name : 'unknown error';
}

export function createShopLedgerSwitch(options: {
  host: string;
  log: Logger;
  askTimeoutMs?: number;
}): ShopLedgerSwitch {
  const { host, log } = options;
  let current: ShopLedger | null = null;
  let running: ShopLedger | null = null;
  // What was last applied, as a digest (the key is part of it): the same settings saved
  // again, or another setting changed, leave the ledger (or its failure) as it is.
  let applied: string | null = null;
  let stopped = false;
  let queue: Promise<void> = Promise.resolve();

  async function halt(): Promise<void> {
    const ledger = current;
    current = null;
    running = null;
    if (ledger)
      await ledger.stop().catch((error) => log.warn(`The shop ledger did not stop cleanly (${errorKind(error)}).`));
  }

  async function apply(config: ShopLedgerConfig | null): Promise<void> {
    const digest = config && createHash('sha256').update(JSON.stringify(config), 'utf8').digest('hex');
    if (digest === applied) return;
    await halt();
    applied = digest;
    if (config === null || stopped) return;
    const keys = deriveShopKeys(config);
    if (keys === null) return;
    const peers = config.peers.map(parseShopPeer).filter((peer): peer is PeerAddress => peer !== null);
    const listen = { host, port: config.port };
    try {
      const ledger = createShopLedger({
        keys,
        tillName: config.tillName,
        peers,
        listen,
        ...(options.askTimeoutMs ? { askTimeoutMs: options.askTimeoutMs } : {}),
      });
      current = ledger;
      const address = await ledger.start();
      running = ledger;
      log.info(`The shop ledger listens on ${peerName(address)}, with ${peers.length} tills named in Settings.`);
    } catch (error) {
      log.warn(`The shop ledger could not start on ${peerName(listen)} (${errorKind(error)}); this till works alone.`);
      await halt();
    }
  }

  function enqueue(step: () => Promise<void>): Promise<void> {
    queue = queue.then(step).catch((error) => log.warn(`The shop ledger could not be updated (${errorKind(error)}).`));
    return queue;
  }

  return {
    update: (config) => enqueue(() => apply(config)),
    running: () => running,
    settled: () => queue,
    stop() {
      stopped = true;
      return enqueue(halt);
    },
  };
}
