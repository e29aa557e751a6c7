/**
 * A shop on a test's own LAN (test/support/network-namespace.ts `createLan`), as the LAN tests
 * start it: Till 1 and Till 2 whole on hosts 1 and 2 (lan-tills.ts), the service on host 3, the
 * other hosts left to the test. No address is named anywhere: the tills find each other by
 * mDNS, and the shop is ready once each has heard from the other (Settings' live list).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, vi } from 'vitest';
import { createLan, type Lan } from '../support/network-namespace';
import { builtRenderer, configureTill, SERVICE_KEY } from './harness';
import { startLanService, startLanTill, type LanTill } from './lan-tills';
import { bundleBridges } from './till-server';

/** Where each part of the shop runs: the index of its host on the LAN. */
export const HOST = { till1: 0, till2: 1, service: 2 } as const;
/** Every till's ledger port (the app's default). */
export const LEDGER_PORT = 47231;
const SERVICE_PORT = 4010;

export interface LanShop {
  lan: Lan;
  /** A folder of the test's own, removed on `close`. */
  work: string;
  service: Awaited<ReturnType<typeof startLanService>>;
  one: LanTill;
  two: LanTill;
  close(): Promise<void>;
}

/** Starts the shop on a LAN of `hosts` hosts (at least 3), each till with offline redemption on, in `branchId`. */
export async function startLanShop(options: { hosts: number; branchId: string; prefix: string }): Promise<LanShop> {
  const work = await mkdtemp(join(tmpdir(), options.prefix));
  const tills: LanTill[] = [];
  let lan: Lan | undefined;
  const close = async (): Promise<void> => {
    await Promise.all(tills.map((till) => till.close()));
    await lan?.remove();
    await rm(work, { recursive: true, force: true });
  };
  try {
    const bridgesFile = join(work, 'bridges.json');
    const [rendererDir, bridges] = await Promise.all([builtRenderer(join(work, 'renderer')), bundleBridges()]);
    await writeFile(bridgesFile, JSON.stringify(bridges));
    lan = await createLan(options.hosts);
    const service = await startLanService(lan.hosts[HOST.service]!, {
      key: SERVICE_KEY,
      dataFile: join(work, 'service.json'),
      port: SERVICE_PORT,
    });
    const files = { workDir: work, rendererDir, bridgesFile, service: service.at };
    const started = await Promise.all(
      [HOST.till1, HOST.till2].map((index) => startLanTill(lan!.hosts[index]!, files, `Till ${index + 1}`)),
    );
    tills.push(...started);
    const [one, two] = started as [LanTill, LanTill];
    for (const [till, name] of [
      [one, 'Till 1'],
      [two, 'Till 2'],
    ] as const) {
      await configureTill(till.call, {
        baseUrl: service.url,
        tillName: name,
        branchId: options.branchId,
        allowOfflineRedemption: true,
      });
      await till.open();
    }
    // Each hears from the other this shift (Settings' live list asks them now).
    for (const [till, other] of [
      [one, 'Till 2'],
      [two, 'Till 1'],
    ] as const) {
      await vi.waitFor(
        async () => {
          const listed = await till.call('shopTills');
          const reachable = listed.ok ? listed.data.tills.filter((seen) => seen.reachable) : [];
          expect(reachable.map((seen) => seen.till)).toEqual([other]);
        },
        { timeout: 20_000, interval: 250 },
      );
    }
    return { lan, work, service, one, two, close };
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
}
