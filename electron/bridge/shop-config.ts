/**
 * The shop ledger as the settings say: only a till that talks to its service (not the
 * demo), with a key, a branch and the ledger on in Settings, runs it; after anything that
 * may change that, the ledger follows, without holding up the answer.
 */
import type { ConnectionMode, Settings } from '../../common/contract';
import type { Logger } from '../log/log';
import { join } from 'node:path';
import { claimsFile } from '../shop-ledger/claim-store';
import { createReportRelay, type ReportRelay } from '../shop-ledger/report-relay';
import { REPORT_BUILD_MS } from '../shop-ledger/shop-report-operations';
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
  /** Where the other tills' requests for this till's report wait for the page (the shop's report). */
  reports: ReportRelay;
  /** Stops the ledger and ends the requests still waiting. */
  stop(): Promise<void>;
}

export function followShopSettings(options: {
  config: () => ShopLedgerConfig | null;
  hosts: readonly string[];
  /** The folder where the tills heard from (`shop-tills.json`) and the claims (`shop-claims.json`) are kept across a restart. */
  folder: string;
  discovery?: DiscoveryFactory;
  askTimeoutMs?: number;
  log: Logger;
}): ShopFollower {
  const reports = createReportRelay();
  const shop = createShopLedgerSwitch({
    hosts: options.hosts,
    seenTills: seenTillsFile(join(options.folder, 'shop-tills.json')),
    claims: claimsFile(join(options.folder, 'shop-claims.json')),
    // Another till's request for this till's report is answered by the page, which holds the journal.
    report: (since, until) => reports.ask(since, until, REPORT_BUILD_MS),
    ...(options.discovery ? { discovery: options.discovery } : {}),
    log: options.log,
    ...(options.askTimeoutMs ? { askTimeoutMs: options.askTimeoutMs } : {}),
  });
  const follow = (): void => void shop.update(options.config());
  follow();
  const stop = async (): Promise<void> => {
    reports.close();
    await shop.stop();
  };
  return { shop, follow, reports, stop };
}
