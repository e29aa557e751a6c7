import { createHash } from 'node:crypto';
import type { Logger } from '../log/log';
import { deriveShopKeys } from '../shop-ledger/shop-secret';
import { createShopLedger, peerName, type ShopLedger } from '../shop-ledger/shop-ledger-service';
import type { Discovery, DiscoveryOptions } from '../shop-ledger/discovery';
import type { PeerAddress } from '../shop-ledger/peer-transport';
import type { SeenTill, SeenTillsStore } from '../shop-ledger/seen-tills';
import type { ClaimStore } from '../shop-ledger/claim-store';
import type { ShopReportPart } from '../../common/contract';
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

/** Starts discovery for a running ledger (`startDiscovery` in the app; none in most tests). */
export type DiscoveryFactory = (options: DiscoveryOptions) => Discovery;

export interface ShopLedgerSwitchOptions {
  /** Where to listen, tried in order: `::` (every address, IPv4 too) then `0.0.0.0` in the app. */
  hosts: readonly string[];
  /** The tills heard from, kept across a restart; none kept when absent. */
  seenTills?: SeenTillsStore;
  /** The claims held, kept across a restart (0600, atomic); none kept when absent. */
  claims?: ClaimStore;
  /** This till's report for another till's request (the shop's report); none when absent. */
  report?: (since: string, until: string) => Promise<ShopReportPart | null>;
  log: Logger;
  askTimeoutMs?: number;
  discovery?: DiscoveryFactory;
}

export function createShopLedgerSwitch(options: ShopLedgerSwitchOptions): ShopLedgerSwitch {
  const { hosts, log } = options;
  let current: ShopLedger | null = null;
  let discovery: Discovery | null = null;
  let running: ShopLedger | null = null;
  // What was last applied, as a digest (the key is part of it): the same settings saved
  // again, or another setting changed, leave the ledger (or its failure) as it is.
  let applied: string | null = null;
  let stopped = false;
  let queue: Promise<void> = Promise.resolve();
  /** The list of tills heard from, being written: one write at a time, awaited when the ledger stops. */
  let saving: Promise<void> = Promise.resolve();
  /** Rises with each ledger started: a late report from a stopped one is not written. */
  let generation = 0;

  async function halt(): Promise<void> {
    const ledger = current;
    const finding = discovery;
    current = null;
    running = null;
    discovery = null;
    if (finding)
      await finding.stop().catch((error) => log.warn(`Discovery did not stop cleanly (${errorKind(error)}).`));
    if (ledger)
      await ledger.stop().catch((error) => log.warn(`The shop ledger did not stop cleanly (${errorKind(error)}).`));
    generation += 1;
    // Nothing is still writing once the ledger is stopped (the user-data folder may go next).
    await saving;
  }

  /** Writes the list of tills heard from, for the ledger of `mine`; a stopped one's late reports are dropped. */
  function keepSeen(tag: string, mine: number): (tills: SeenTill[]) => void {
    return (tills) => {
      const store = options.seenTills;
      if (!store || mine !== generation) return;
      // One write at a time, in order; a failed one costs only the list after a restart.
      saving = saving
        .then(() => store.save(tag, tills))
        .catch((error) => log.warn(`The shop's tills could not be kept (${errorKind(error)}).`));
    };
  }

  /**
   * Writes the claims of the ledger of `mine` after each change, coalesced: at most one write
   * runs, and one more follows with whatever changed meanwhile. A failed write is one line in
   * the log; the claims are still held in memory.
   */
  function keepClaims(tag: string, mine: number, ledger: () => ShopLedger | null): () => void {
    // A change while a write runs: one more write follows it, with the claims of then.
    let claimsDirty = false;
    let claimsWriting = false;
    const write = (): void => {
      const store = options.claims;
      const current = ledger();
      if (!store || current === null || mine !== generation || claimsWriting) return;
      claimsDirty = false;
      claimsWriting = true;
      saving = saving
        .then(() => store.save(tag, current.snapshot()))
        .catch((error) => log.warn(`The shop's claims could not be kept on disk (${errorKind(error)}).`))
        .finally(() => {
          claimsWriting = false;
          if (claimsDirty) write();
        });
    };
    return () => {
      claimsDirty = true;
      write();
    };
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
    const failures: string[] = [];
    const tag = keys.discoveryTag;
    const seenBefore = options.seenTills ? await options.seenTills.load(tag) : [];
    const keptClaims = options.claims ? await options.claims.load(tag) : undefined;
    for (const host of hosts) {
      const listen = { host, port: config.port };
      try {
        let made: ShopLedger | null = null;
        const ledger = createShopLedger({
          keys,
          tillName: config.tillName,
          peers,
          listen,
          seenBefore,
          onSeen: keepSeen(tag, generation),
          ...(keptClaims ? { keptClaims } : {}),
          onClaimsChanged: keepClaims(tag, generation, () => made),
          ...(options.report ? { report: options.report } : {}),
          ...(options.askTimeoutMs ? { askTimeoutMs: options.askTimeoutMs } : {}),
          log,
        });
        made = ledger;
        current = ledger;
        const address = await ledger.start();
        running = ledger;
        log.info(`The shop ledger listens on ${peerName(address)}, with ${peers.length} tills named in Settings.`);
        discovery = startFinding(options, ledger, keys.discoveryTag, address.port);
        return;
      } catch (error) {
        // An address family the machine lacks (no IPv6) tries the next host; a taken port fails them all alike.
        failures.push(`${peerName(listen)} (${errorKind(error)})`);
        await halt();
      }
    }
    log.warn(`The shop ledger could not start on ${failures.join(', ')}; this till works alone.`);
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

/** Discovery for the running ledger; a failure to start it leaves the peers named in Settings. */
function startFinding(
  options: Pick<ShopLedgerSwitchOptions, 'discovery' | 'log'>,
  ledger: ShopLedger,
  tag: string,
  port: number,
): Discovery | null {
  const { log } = options;
  if (!options.discovery) return null;
  let warned = false;
  try {
    return options.discovery({
      tag,
      port,
      onPeers: (found) => {
        ledger.setDiscovered(found);
        log.info(`Discovery sees ${found.length} other tills of the shop on the LAN.`);
      },
      onError: (error) => {
        if (warned) return;
        warned = true;
        log.warn(`Discovery on the LAN failed (${errorKind(error)}); the tills named in Settings are still asked.`);
      },
    });
  } catch (error) {
    log.warn(`Discovery could not start (${errorKind(error)}); the tills named in Settings are still asked.`);
    return null;
  }
}
