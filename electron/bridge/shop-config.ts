/**
 * The shop ledger as the settings say: only a till that talks to its service (not the
 * demo), with a key, a branch and the ledger on in Settings, runs it; after anything that
 * may change that, the ledger follows, without holding up the answer.
 */
import type { ConnectionMode, Settings } from '../../common/contract';
import type { Logger } from '../log/log';
import { seenTillsFile } from '../shop-ledger/seen-tills';
import {
  createShopLedgerSwitch,
  type DiscoveryFactory,
  type ShopLedgerConfig,
  type ShopLedgerSwitch,
} from './shop-ledger-switch';

export function shopConfigOf(settings: Settings, apiKey: string | null, mode: ConnectionMode): ShopLedgerConfig | null {
  const { baseUrl, branchId, programId, tillName, shopPeers, shopLedgerPort, shopLedger } = settings;
  if (mode !== 'service' || !shopLedger || !apiKey || !baseUrl || !branchId) return null;
  return { apiKey, baseUrl, branchId, programId, tillName, peers: shopPeers, port: shopLedgerPort };
}

export interface ShopFollower {
  shop: ShopLedgerSwitch;
  /** Brings the ledger in line with the settings now; returns at once. */
  follow(): void;
}

export function followShopSettings(options: {
  config: () => ShopLedgerConfig | null;
  hosts: readonly string[];
  /** Where the tills heard from are kept across a restart. */
  seenTillsPath: string;
  discovery?: DiscoveryFactory;
  askTimeoutMs?: number;
  log: Logger;
}): ShopFollower {
  const shop = createShopLedgerSwitch({
    hosts: options.hosts,
    seenTills: seenTillsFile(options.seenTillsPath),
    ...(options.discovery ? { discovery: options.discovery } : {}),
    log: options.log,
    ...(options.askTimeoutMs ? { askTimeoutMs: options.askTimeoutMs } : {}),
  });
  const follow = (): void => void shop.update(options.config());
  follow();
  return { shop, follow };
}
