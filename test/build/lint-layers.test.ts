import { ESLint } from 'eslint';
import { describe, expect, test } from 'vitest';

// The layering rules in eslint.config.js, tried on small files linted as if they sat in each
// folder, so a rule that stops matching (a renamed folder, a changed glob) fails here.
const eslint = new ESLint({ cwd: process.cwd() });

async function layerErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages
    .filter((m) => m.severity === 2 && /restricted|no-undef|^layers\//.test(m.ruleId ?? ''))
    .map((m) => `${m.ruleId}: ${m.message}`);
}

type Case = [file: string, code: string];

const forbidden: Case[] = [
  ['renderer/stores/x.ts', "import { handlers } from '../../electron/bridge/app-core';\nexport { handlers };\n"],
  ['renderer/stores/x.ts', "import { CHANNELS } from '../../common/contract';\nexport { CHANNELS };\n"],
  ['renderer/stores/x.ts', "export { CHANNELS } from '../../common/contract';\n"],
  [
    'renderer/stores/x.ts',
    "import type { Settings } from '../../electron/storage/settings';\nexport type { Settings };\n",
  ],
  ['renderer/stores/x.ts', "import { ipcRenderer } from 'electron';\nexport { ipcRenderer };\n"],
  ['renderer/stores/x.ts', "import { startSandbox } from '../../sandbox';\nexport { startSandbox };\n"],
  ['renderer/stores/x.ts', "import type { Store } from '../../sandbox/store';\nexport type { Store };\n"],
  ['renderer/stores/x.ts', "export const s = () => import('../../sandbox/index');\n"],
  [
    'renderer/views/X.vue',
    '<script setup lang="ts">\nimport { handlers } from \'../../electron/bridge/app-core\';\nvoid handlers;\n</script>\n',
  ],
  // Views, components and stores reach the offline core through its facade only.
  ['renderer/stores/x.ts', "import { openOfflineDb } from '../offline/db/open';\nexport { openOfflineDb };\n"],
  [
    'renderer/stores/x.ts',
    "import type { RedemptionItem } from '../offline/db/schema';\nexport type { RedemptionItem };\n",
  ],
  [
    'renderer/stores/x.ts',
    "import { isUnreachable } from '../offline/connection/failure-kinds';\nexport { isUnreachable };\n",
  ],
  ['renderer/stores/x.ts', "export { Outbox } from '../offline/outbox/outbox';\n"],
  ['renderer/stores/x.ts', "export const r = () => import('../offline/outbox/replayer');\n"],
  ['renderer/lib/x.ts', "import { fold } from '../offline/search/fold';\nexport { fold };\n"],
  [
    'renderer/components/X.vue',
    '<script setup lang="ts">\nimport { Replayer } from \'../offline/outbox/replayer\';\nvoid Replayer;\n</script>\n',
  ],
  [
    'renderer/views/X.vue',
    '<script setup lang="ts">\nimport type { JournalEntry } from \'../offline/db/db\';\ndefineProps<{ e: JournalEntry }>();\n</script>\n',
  ],
  [
    'renderer/App.vue',
    '<script setup lang="ts">\nimport { CustomerCache } from \'./offline/cache/customer-cache\';\nvoid CustomerCache;\n</script>\n',
  ],
  ['electron/bridge/app-core.ts', "import { startSandbox } from '../../sandbox';\nexport { startSandbox };\n"],
  ['electron/bridge/app-core.ts', "export const s = () => import('../../sandbox');\n"],
  ['electron/bridge/app-core.ts', "import { db } from '../../renderer/offline/db/schema';\nexport { db };\n"],
  ['sandbox/store.ts', "import type { Customer } from '../common/contract';\nexport type { Customer };\n"],
  ['sandbox/store.ts', "import { isRecord } from '../common/is-record';\nexport { isRecord };\n"],
  ['sandbox/store.ts', "export const f = () => import('../common/fold');\n"],
  ['sandbox/store.ts', "import { fold } from '../renderer/offline/search/fold';\nexport { fold };\n"],
  ['common/x.ts', "import { createAppCore } from '../electron/bridge/app-core';\nexport { createAppCore };\n"],
  ['common/x.ts', "import { fold } from '../renderer/offline/search/fold';\nexport { fold };\n"],
  ['common/x.ts', "import { PROGRAMS } from '../sandbox';\nexport { PROGRAMS };\n"],
  ['common/x.ts', "import { readFile } from 'node:fs/promises';\nexport { readFile };\n"],
  ['common/x.ts', "import { join } from 'path';\nexport { join };\n"],
  ['common/x.ts', 'export const home = () => process.env.HOME;\n'],
  ['common/x.ts', 'export const title = () => document.title;\n'],
  ['common/x.ts', 'export const bytes = (s: string) => Buffer.from(s);\n'],
  // Inside the offline core, a subsystem imports only those below it; only index.ts opens the database.
  ['renderer/offline/search/x.ts', "import { Outbox } from '../outbox/outbox';\nexport { Outbox };\n"],
  [
    'renderer/offline/search/x.ts',
    "import { CacheRefresh } from '../refresh/cache-refresh';\nexport { CacheRefresh };\n",
  ],
  ['renderer/offline/customers/x.ts', "import { openOfflineDb } from '../db/open';\nexport { openOfflineDb };\n"],
  // customers/ holds customers only: the front that adds their rewards (cache/) and the rewards
  // sit above it; pacing/ and hashing/ sit below everything and import nothing.
  [
    'renderer/offline/customers/x.ts',
    "import { RewardCache } from '../rewards/reward-cache';\nexport { RewardCache };\n",
  ],
  [
    'renderer/offline/customers/x.ts',
    "import { CustomerCache } from '../cache/customer-cache';\nexport { CustomerCache };\n",
  ],
  [
    'renderer/offline/rewards/x.ts',
    "import { CustomerCache } from '../cache/customer-cache';\nexport { CustomerCache };\n",
  ],
  ['renderer/offline/pacing/x.ts', "import type { OfflineDb } from '../db/schema';\nexport type { OfflineDb };\n"],
  ['renderer/offline/hashing/x.ts', "import { foldName } from '../search/fold';\nexport { foldName };\n"],
  // sealing/ is Web Crypto alone: no database, nothing else of the core, no renderer words.
  ['renderer/offline/sealing/x.ts', "import type { OfflineDb } from '../db/schema';\nexport type { OfflineDb };\n"],
  ['renderer/offline/sealing/x.ts', "import { cyrb53 } from '../hashing/cyrb53';\nexport { cyrb53 };\n"],
  ['renderer/offline/sealing/x.ts', "import { t } from '../../i18n';\nexport { t };\n"],
  ['renderer/offline/sealing/x.ts', "import Dexie from 'dexie';\nexport { Dexie };\n"],
  [
    'renderer/offline/sealing/x.ts',
    "import { handlers } from '../../../electron/bridge/app-core';\nexport { handlers };\n",
  ],
  // Outside the core it is reached through the facade only, like every room of it.
  ['renderer/stores/x.ts', "import { openSealer } from '../offline/sealing/sealer';\nexport { openSealer };\n"],
  ['renderer/offline/connection/x.ts', "import type { OfflineDb } from '../db/schema';\nexport type { OfflineDb };\n"],
  [
    'renderer/offline/outbox/x.ts',
    "import type { CacheRefresh } from '../refresh/cache-refresh';\nexport type { CacheRefresh };\n",
  ],
  // The outbox speaks in codes: its words are the view layer's (lib/outbox-words.ts).
  ['renderer/offline/outbox/x.ts', "import { t } from '../../i18n';\nexport { t };\n"],
  ['renderer/offline/outbox/x.ts', "import { formatDayTime } from '../../lib/dates';\nexport { formatDayTime };\n"],
  // Nor does any other room of the core, its top files included: none reaches up any more.
  ['renderer/offline/counter/x.ts', "import { t } from '../../i18n';\nexport { t };\n"],
  ['renderer/offline/connection/x.ts', "import { t } from '../../i18n';\nexport { t };\n"],
  ['renderer/offline/refresh/x.ts', "import { isolate } from '../../i18n/isolate';\nexport { isolate };\n"],
  [
    'renderer/offline/counter-operations.ts',
    "import { formatDayTime } from '../lib/dates';\nexport { formatDayTime };\n",
  ],
  ['renderer/offline/index.ts', "import { t } from '../i18n';\nexport { t };\n"],
  ['renderer/offline/db/schema.ts', "import { readMeta } from './meta';\nexport { readMeta };\n"],
  ['renderer/offline/db/schema.ts', "import type { Outbox } from '../outbox/outbox';\nexport type { Outbox };\n"],
  [
    'renderer/offline/db/meta.ts',
    "import { CustomerCache } from '../cache/customer-cache';\nexport { CustomerCache };\n",
  ],
  // Inside the main process likewise: shell/ on top, messages/, log/ and validation/ at the bottom.
  ['electron/service/x.ts', "import { createAppCore } from '../bridge/app-core';\nexport { createAppCore };\n"],
  ['electron/log/x.ts', "import { createLoyaltyApi } from '../service/loyalty-api';\nexport { createLoyaltyApi };\n"],
  ['electron/bridge/x.ts', "import { createWindow } from '../shell/window';\nexport { createWindow };\n"],
  ['electron/storage/x.ts', "import { LinkInbox } from '../links/link-inbox';\nexport { LinkInbox };\n"],
  ['electron/service/x.ts', "import { startSandbox } from '../../sandbox';\nexport { startSandbox };\n"],
  // The two shells wire the same core and never each other; the browser one never loads Electron.
  [
    'electron/browser-shell/x.ts',
    "import { createMainWindow } from '../shell/window';\nexport { createMainWindow };\n",
  ],
  [
    'electron/shell/x.ts',
    "import { startPageServer } from '../browser-shell/page-server';\nexport { startPageServer };\n",
  ],
  [
    'electron/bridge/x.ts',
    "import { openInBrowser } from '../browser-shell/open-browser';\nexport { openInBrowser };\n",
  ],
  [
    'electron/storage/x.ts',
    "import { takeInstanceLock } from '../browser-shell/instance-lock';\nexport { takeInstanceLock };\n",
  ],
  // shop-ledger/ sits on storage/ and below; nothing below it reads it, and it reads nothing above.
  ['electron/shop-ledger/x.ts', "import { createAppCore } from '../bridge/app-core';\nexport { createAppCore };\n"],
  [
    'electron/shop-ledger/x.ts',
    "import { createLoyaltyApi } from '../service/loyalty-api';\nexport { createLoyaltyApi };\n",
  ],
  ['electron/shop-ledger/x.ts', "import { LinkInbox } from '../links/link-inbox';\nexport { LinkInbox };\n"],
  ['electron/shop-ledger/x.ts', "import { openDemoMode } from '../demo/demo-mode';\nexport { openDemoMode };\n"],
  ['electron/shop-ledger/x.ts', "import { createMainWindow } from '../shell/window';\nexport { createMainWindow };\n"],
  ['electron/shop-ledger/x.ts', "import { startSandbox } from '../../sandbox';\nexport { startSandbox };\n"],
  ['electron/storage/x.ts', "import { ClaimLedger } from '../shop-ledger/claim-ledger';\nexport { ClaimLedger };\n"],
  ['electron/service/x.ts', "import { openMessage } from '../shop-ledger/wire';\nexport { openMessage };\n"],
  ['electron/log/x.ts', "import { deriveShopKeys } from '../shop-ledger/shop-secret';\nexport { deriveShopKeys };\n"],
  ['electron/links/x.ts', "import { claimToken } from '../shop-ledger/claims';\nexport { claimToken };\n"],
  ['electron/browser-shell/x.ts', "import { app } from 'electron';\nexport { app };\n"],
  ['electron/browser-shell/x.ts', "import { startSandbox } from '../../sandbox';\nexport { startSandbox };\n"],
  // policy/ sits on storage/; updates/ reads policy/; nothing below reads either, and they read nothing above.
  ['electron/policy/x.ts', "import { createAppCore } from '../bridge/app-core';\nexport { createAppCore };\n"],
  // The till's health reads what the others keep; none of them, and no service call, reads it.
  ['electron/health/x.ts', "import { createAppCore } from '../bridge/app-core';\nexport { createAppCore };\n"],
  [
    'electron/health/x.ts',
    "import { createLoyaltyApi } from '../service/loyalty-api';\nexport { createLoyaltyApi };\n",
  ],
  ['electron/health/x.ts', "import { judgeOffer } from '../updates/update-decisions';\nexport { judgeOffer };\n"],
  ['electron/health/x.ts', "import { createLinkInbox } from '../links/link-inbox';\nexport { createLinkInbox };\n"],
  ['electron/work-copy/x.ts', "import { checkHealth } from '../health/health-check';\nexport { checkHealth };\n"],
  ['electron/storage/x.ts', "import { readTillId } from '../health/till-id';\nexport { readTillId };\n"],
  [
    'electron/service/x.ts',
    "import { watchConnection } from '../health/connection-watch';\nexport { watchConnection };\n",
  ],
  ['electron/policy/x.ts', "import { judgeOffer } from '../updates/update-decisions';\nexport { judgeOffer };\n"],
  ['electron/updates/x.ts', "import { openVault } from '../storage/vault';\nexport { openVault };\n"],
  ['electron/updates/x.ts', "import { startAutoUpdate } from '../shell/auto-update';\nexport { startAutoUpdate };\n"],
  ['electron/storage/x.ts', "import { applyPolicy } from '../policy/policy-merge';\nexport { applyPolicy };\n"],
  ['electron/log/x.ts', "import { stagingBucket } from '../updates/update-decisions';\nexport { stagingBucket };\n"],
  // A migration runs today's helpers no more: not the app's search/, customers/, schema or contract.
  [
    'renderer/offline/db/migrations/v10.ts',
    "import { listingOf } from '../../search/listings';\nexport { listingOf };\n",
  ],
  [
    'renderer/offline/db/migrations/v10.ts',
    "import type { OfflineDb } from '../schema';\nexport type { OfflineDb };\n",
  ],
  [
    'renderer/offline/db/migrations/frozen/x.ts',
    "import type { Customer } from '../../../../../common/contract';\nexport type { Customer };\n",
  ],
  // A folder with no row is refused, whatever it holds, and so is an import of one: a new
  // folder starts with rules, never without.
  ['electron/reports/x.ts', 'export const x = 1;\n'],
  ['renderer/widgets/X.vue', '<script setup lang="ts">\nconst x = 1;\nvoid x;\n</script>\n'],
  ['renderer/offline/ledger/x.ts', 'export const x = 1;\n'],
  ['renderer/offline/x.ts', "import { Outbox } from './outbox';\nexport { Outbox };\n"],
  ['electron/bridge/x.ts', "import { x } from '../reports/x';\nexport { x };\n"],
  ['renderer/stores/x.ts', "import { x } from '../widgets/x';\nexport { x };\n"],
  // The renderer's top level: views over components over stores, lib/ and i18n/ below them.
  ['renderer/stores/x.ts', "import FindView from '../views/FindView.vue';\nexport { FindView };\n"],
  ['renderer/stores/x.ts', "import TextField from '../components/TextField.vue';\nexport { TextField };\n"],
  [
    'renderer/components/X.vue',
    '<script setup lang="ts">\nimport FindView from \'../views/FindView.vue\';\nvoid FindView;\n</script>\n',
  ],
  ['renderer/lib/x.ts', "import { useTillStore } from '../stores/till';\nexport { useTillStore };\n"],
  ['renderer/i18n/x.ts', "import { formatDayTime } from '../lib/dates';\nexport { formatDayTime };\n"],
  ['renderer/i18n/x.ts', "export const v = () => import('../views/FindView.vue');\n"],
  ['renderer/offline/db/x.ts', "import { useTillStore } from '../../stores/till';\nexport { useTillStore };\n"],
  ['renderer/offline/search/x.ts', "import { t } from '../../i18n';\nexport { t };\n"],
  ['electron/messages/x.ts', "import { describeError } from '../log/log';\nexport { describeError };\n"],
  // lib/ is below the offline core's facade, and the core reaches up to it no more for phones.
  ['renderer/lib/x.ts', "import type { RedemptionState } from '../offline';\nexport type { RedemptionState };\n"],
  ['renderer/offline/search/x.ts', "import { formatDayTime } from '../../lib/dates';\nexport { formatDayTime };\n"],
  ['renderer/offline/customers/x.ts', "import { formatMoney } from '../../lib/money';\nexport { formatMoney };\n"],
  ['electron/service/x.ts', "export { loadSettings } from '../storage/settings';\n"],
];

const allowed: Case[] = [
  // Each row's own imports: the renderer's top level and the main process.
  [
    'renderer/views/X.vue',
    "<script setup lang=\"ts\">\nimport TextField from '../components/TextField.vue';\nimport { useTillStore } from '../stores/till';\nimport { t } from '../i18n';\nvoid TextField;\nvoid useTillStore;\nvoid t;\n</script>\n",
  ],
  [
    'renderer/stores/x.ts',
    "import { readPhone } from '../lib/phone';\nimport { t } from '../i18n';\nexport { readPhone, t };\n",
  ],
  ['renderer/main.ts', "import App from './App.vue';\nimport './styles.css';\nexport { App };\n"],
  ['electron/demo/x.ts', "import { loadSettings } from '../storage/settings';\nexport { loadSettings };\n"],
  [
    'renderer/offline/outbox/x.ts',
    "import { CustomerCache } from '../cache/customer-cache';\nimport type { OfflineDb } from '../db/schema';\nexport { CustomerCache, type OfflineDb };\n",
  ],
  [
    'renderer/offline/refresh/x.ts',
    "import { CustomerCache } from '../cache/customer-cache';\nimport { WriteCostModel } from '../pacing/write-cost';\nimport { cyrb53 } from '../hashing/cyrb53';\nexport { CustomerCache, WriteCostModel, cyrb53 };\n",
  ],
  [
    'renderer/offline/customers/x.ts',
    "import { SearchRhythm } from '../pacing/search-rhythm';\nimport { cyrb53 } from '../hashing/cyrb53';\nexport { SearchRhythm, cyrb53 };\n",
  ],
  ['renderer/offline/index.ts', "import { openOfflineDb } from './db/open';\nexport { openOfflineDb };\n"],
  // The core's top files may open a sealer; inside sealing/ its files import each other.
  ['renderer/offline/index.ts', "import { openSealer } from './sealing/sealer';\nexport { openSealer };\n"],
  [
    'renderer/offline/sealing/x.ts',
    "import { SealedValueError } from './sealed-bytes';\nexport { SealedValueError };\n",
  ],
  ['renderer/offline/db/open.ts', "import { MIGRATIONS } from './migrations';\nexport { MIGRATIONS };\n"],
  // A migration carries the code it ran with: its own folder and Dexie only.
  [
    'renderer/offline/db/migrations/v10.ts',
    "import { listingChunksOf } from './frozen/listings';\nimport type { Table } from 'dexie';\nexport { listingChunksOf, type Table };\n",
  ],
  [
    'renderer/offline/db/schema.ts',
    "import type { Customer } from '../../../common/contract';\nexport type { Customer };\n",
  ],
  [
    'electron/bridge/x.ts',
    "import { createLoyaltyApi } from '../service/loyalty-api';\nexport { createLoyaltyApi };\n",
  ],
  ['electron/links/x.ts', "import { loadSettings } from '../storage/settings';\nexport { loadSettings };\n"],
  ['renderer/stores/x.ts', "import type { Customer } from '../../common/contract';\nexport type { Customer };\n"],
  ['renderer/stores/x.ts', "import { type Customer } from '../../common/contract';\nexport type { Customer };\n"],
  ['renderer/stores/x.ts', "import { backoffDelay } from '../../common/backoff';\nexport { backoffDelay };\n"],
  [
    'renderer/views/X.vue',
    '<script setup lang="ts">\nimport type { Customer } from \'../../common/contract\';\ndefineProps<{ c: Customer }>();\n</script>\n',
  ],
  // The facade itself, by folder or by file, and the offline store beside the other stores.
  [
    'renderer/stores/x.ts',
    "import { createOfflineServices, type RedemptionItem } from '../offline';\nexport { createOfflineServices, type RedemptionItem };\n",
  ],
  ['renderer/stores/x.ts', "import { isUnreachable } from '../offline/index';\nexport { isUnreachable };\n"],
  ['renderer/stores/x.ts', "import { useOfflineStore } from './offline';\nexport { useOfflineStore };\n"],
  ['renderer/stores/x.ts', "export const f = () => import('../offline/index');\n"],
  [
    'renderer/views/X.vue',
    "<script setup lang=\"ts\">\nimport type { JournalEntry } from '../offline';\nimport { useOfflineStore } from '../stores/offline';\ndefineProps<{ e: JournalEntry }>();\nvoid useOfflineStore;\n</script>\n",
  ],
  // At the top of the offline core, beside index.ts, a module of its own row imports any of its folders.
  [
    'renderer/offline/counter-operations.ts',
    "import { Outbox } from './outbox';\nimport { openOfflineDb } from './db';\nexport { Outbox, openOfflineDb };\n",
  ],
  [
    'electron/demo/demo-mode.ts',
    "import type { Store } from '../../sandbox/store';\nexport const s = () => import('../../sandbox');\nexport type { Store };\n",
  ],
  [
    'electron/bridge/app-core.ts',
    "import { isRecord } from '../../common/is-record';\nimport { app } from 'electron';\nexport { isRecord, app };\n",
  ],
  [
    'electron/browser-shell/x.ts',
    "import { createAppCore } from '../bridge/app-core';\nimport { createAppProtocolHandler } from '../app-page/app-protocol';\nimport { createKeyFileCipher } from '../storage/key-file-cipher';\nexport { createAppCore, createAppProtocolHandler, createKeyFileCipher };\n",
  ],
  [
    'electron/shop-ledger/x.ts',
    "import { loadSettings } from '../storage/settings';\nimport { describeError } from '../log/log';\nimport { msg } from '../messages';\nimport { plainText } from '../validation/control-characters';\nimport { isRecord } from '../../common/is-record';\nexport { loadSettings, describeError, msg, plainText, isRecord };\n",
  ],
  ['electron/bridge/x.ts', "import { ClaimLedger } from '../shop-ledger/claim-ledger';\nexport { ClaimLedger };\n"],
  [
    'electron/health/x.ts',
    "import { readWorkCopyFile } from '../work-copy/work-copy-reading';\nimport { readSeenTills } from '../shop-ledger/seen-tills';\nimport { applyPolicy } from '../policy/policy-merge';\nimport { readSettingsFile } from '../storage/settings';\nimport { readRemembered } from '../demo/demo-mode';\nimport { redact } from '../log/redaction';\nexport { readWorkCopyFile, readSeenTills, applyPolicy, readSettingsFile, readRemembered, redact };\n",
  ],
  ['electron/bridge/x.ts', "import { openHealth } from '../health/health-wiring';\nexport { openHealth };\n"],
  ['electron/shell/x.ts', "import { runHealthCommand } from '../health/health-check';\nexport { runHealthCommand };\n"],
  [
    'electron/browser-shell/x.ts',
    "import { runHealthCommand } from '../health/health-check';\nexport { runHealthCommand };\n",
  ],
  ['electron/browser-shell/x.ts', "import { openMessage } from '../shop-ledger/wire';\nexport { openMessage };\n"],
  [
    'electron/updates/x.ts',
    "import type { UpdatesPolicy } from '../policy/policy-schema';\nimport { describeError } from '../log/log';\nexport type { UpdatesPolicy };\nexport { describeError };\n",
  ],
  [
    'electron/policy/x.ts',
    "import { settingsPatchSchema } from '../storage/settings';\nimport { msg } from '../messages';\nexport { settingsPatchSchema, msg };\n",
  ],
  [
    'sandbox/store.ts',
    "import { randomUUID } from 'node:crypto';\nimport { z } from 'zod';\nexport { randomUUID, z };\n",
  ],
  // The one piece of the app the sandbox shares: the pure folding of names, so the two never drift.
  ['sandbox/text-match.ts', "export { foldText, foldWords } from '../common/fold';\n"],
  [
    'common/x.ts',
    "import { isRecord } from './is-record';\nexport const parse = (s: string) => isRecord(JSON.parse(s)) && new Map<string, number>().size === Math.max(0);\n",
  ],
];

describe('layering lint rules', () => {
  test.each(forbidden)('%s refuses: %s', async (file, code) => {
    expect(await layerErrors(file, code)).not.toEqual([]);
  });

  test.each(allowed)('%s allows: %s', async (file, code) => {
    expect(await layerErrors(file, code)).toEqual([]);
  });
});
