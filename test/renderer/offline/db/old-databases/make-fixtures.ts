/**
 * Writes the fixtures of old databases: for each earlier version of the offline database,
 * the app's code of the last commit where that version was the newest stores the same
 * customers and rewards (customers.ts) in fake-indexeddb, and the database is saved as JSON
 * (test/support/idb-snapshot.ts). Run from the repository's root, with its history:
 *
 *   npx tsx test/renderer/offline/db/old-databases/make-fixtures.ts
 *
 * The fixtures are committed: they stand for databases on tills today, and a fixture once
 * written is never made again (only a new version adds one): a fixture already there is
 * left as it is.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { MADE_BY } from './made-by';

const here = resolve(import.meta.dirname);
const root = resolve(here, '../../../../..');

/** Where the modules the driver uses lived at a commit: their folders moved over time. */
interface ModulePaths {
  db: string;
  cache: string;
  outbox: string;
}

function modulePaths(tree: string): ModulePaths {
  const first = (...candidates: string[]) => {
    const found = candidates.find((path) => existsSync(join(tree, `${path}.ts`)));
    if (!found) throw new Error(`None of ${candidates.join(', ')} exists at this commit.`);
    return `./${found}`;
  };
  return {
    db: first('renderer/offline/db/open', 'renderer/offline/db'),
    cache: first('renderer/offline/cache/customer-cache', 'renderer/offline/customer-cache'),
    outbox: first('renderer/offline/outbox/outbox', 'renderer/offline/outbox'),
  };
}

function driver(commit: string, out: string, paths: ModulePaths): string {
  return `
import 'fake-indexeddb/auto';
import { writeFileSync } from 'node:fs';
import { openOfflineDb } from '${paths.db}';
import { CustomerCache } from '${paths.cache}';
import { Outbox } from '${paths.outbox}';
import { snapshotDatabase } from ${JSON.stringify(join(root, 'test/support/idb-snapshot.ts'))};
import { FETCHED_AT, OFFLINE_REGISTRATION, OLD_CUSTOMERS, OLD_REWARDS, QUEUED_CODE, RENAMED } from ${JSON.stringify(join(here, 'customers.ts'))};

async function main(): Promise<void> {
  const db = openOfflineDb('old-till');
  await db.open();
  const cache = new CustomerCache(db, { defaultCountry: () => 'SA', now: () => new Date(FETCHED_AT) });
  await cache.putCustomers(OLD_CUSTOMERS.slice(0, 30) as never);
  await cache.putCustomers(OLD_CUSTOMERS.slice(30) as never);
  await cache.putCustomers([RENAMED] as never);
  await cache.putCustomerWithRewards({ ...OLD_CUSTOMERS[0]!, rewards: [...OLD_REWARDS] } as never);
  const outbox = new Outbox(db, cache, { now: () => new Date(FETCHED_AT), newLocalId: () => 'local-old-till' });
  const settings = { allowOfflineRedemption: true, branchId: null, defaultCountry: 'SA' };
  const queued = await outbox.queueRedemption({ code: QUEUED_CODE, phone: OLD_CUSTOMERS[0]!.phone }, settings as never);
  const registered = await outbox.queueRegistration(OFFLINE_REGISTRATION, settings as never);
  if (!queued.ok || !registered.ok) throw new Error('The old till refused to queue: ' + JSON.stringify([queued, registered]));
  db.close();
  const snapshot = await snapshotDatabase('old-till');
  writeFileSync(${JSON.stringify(out)}, JSON.stringify({ madeBy: ${JSON.stringify(commit)}, ...snapshot }) + '\\n');
}
void main();
`;
}

for (const { version, commit } of MADE_BY) {
  const fixture = join(here, `v${version}.json`);
  if (existsSync(fixture)) continue;
  const tree = mkdtempSync(join(tmpdir(), `till-v${version}-`));
  try {
    const paths = ['renderer', 'electron', 'common'].filter(
      (path) => execFileSync('git', ['ls-tree', '--name-only', commit, path], { cwd: root }).length > 0,
    );
    execFileSync('sh', ['-c', `git archive ${commit} ${paths.join(' ')} | tar -x -C "${tree}"`], { cwd: root });
    symlinkSync(join(root, 'node_modules'), join(tree, 'node_modules'));
    writeFileSync(join(tree, 'package.json'), '{ "type": "module" }\n');
    writeFileSync(join(tree, 'driver.ts'), driver(commit, fixture, modulePaths(tree)));
    execFileSync(join(root, 'node_modules/.bin/tsx'), ['driver.ts'], { cwd: tree, stdio: 'inherit' });
    console.log(`v${version}.json: written by ${commit}`);
  } finally {
    rmSync(tree, { recursive: true, force: true });
  }
}
