/**
 * Every action that needs the manager PIN once one is set, in one list: the main process
 * enforces the ones marked `main` (bridge/guarded-actions.ts refuses them without a right PIN
 * in the last few minutes), and the page derives its prompts from it (each action's words are
 * `managerPin.why.<action>`). The two marked `page` are asked for by the page alone: what they
 * guard lives in the page (the outbox in IndexedDB) or holds nothing the page could not see
 * anyway (Settings' screen, whose every change the main process guards itself).
 * docs/security.md has the table: each action, where it is enforced, and why.
 */
export const GUARDED_ACTIONS = {
  /** Opening Settings (page): the screen shows no secret; each change on it is guarded below. */
  openSettings: { enforcedIn: 'page', settings: [] },
  /** Acknowledging a failure or conflict (page): the outbox lives in the page's IndexedDB. */
  acknowledge: { enforcedIn: 'page', settings: [] },
  /** Saving a file that names customers: the journal's or the shift's CSV, the report's PDF. */
  exportJournal: { enforcedIn: 'main', settings: [] },
  /** Saving the support file: nothing personal in it, yet it leaves the till as every export does. */
  saveSupportFile: { enforcedIn: 'main', settings: [] },
  /** Replacing or removing the API key (a first key, on a till being set up, is not guarded). */
  changeKey: { enforcedIn: 'main', settings: [] },
  /** Where the key, customers' outcomes and the branch's redemptions go. */
  changeService: { enforcedIn: 'main', settings: ['baseUrl', 'posCallbackUrl', 'branchId'] },
  /** Whether rewards are redeemed while the service cannot be reached. */
  offlineRedemption: { enforcedIn: 'main', settings: ['allowOfflineRedemption'] },
  /** The shop ledger, which keeps a reward redeemed once across the shop's tills. */
  changeShopLedger: {
    enforcedIn: 'main',
    settings: ['shopLedger', 'shopRedeemWhenSplit', 'shopPeers', 'shopLedgerPort'],
  },
  /** Who works at this till, as outcomes and reports name them. */
  changeCashiers: { enforcedIn: 'main', settings: ['cashiers'] },
  /** A till already set up going (back) to the demo's practice data. */
  switchToDemo: { enforcedIn: 'main', settings: [] },
  /** Gathering the other tills' figures for the whole shop's report (the till that asks). */
  gatherShopReport: { enforcedIn: 'main', settings: [] },
  /** Changing or removing the manager PIN itself. */
  changePin: { enforcedIn: 'main', settings: [] },
  /** Forgetting the till's data: the work copy and the data key destroyed, the database deleted. */
  forgetTill: { enforcedIn: 'main', settings: [] },
} as const satisfies Record<string, { enforcedIn: 'main' | 'page'; settings: readonly string[] }>;
// (the contract's bridge-results.ts imports this list's type; that each setting named is one of `Settings` is checked where
// the main process reads it, electron/bridge/guarded-actions.ts, so no import goes back.)

export type GuardedAction = keyof typeof GUARDED_ACTIONS;

/** The guarded settings, each once: a change to any of them needs the PIN. */
export const GUARDED_SETTINGS = Object.values(GUARDED_ACTIONS).flatMap(
  (action) => action.settings,
) as ReadonlyArray<GuardedSetting>;

export type GuardedSetting = (typeof GUARDED_ACTIONS)[GuardedAction]['settings'][number];

/** The action a guarded setting belongs to. */
export function actionOfSetting(setting: GuardedSetting): GuardedAction {
  const found = (Object.keys(GUARDED_ACTIONS) as GuardedAction[]).find((action) =>
    (GUARDED_ACTIONS[action].settings as readonly string[]).includes(setting),
  );
  if (!found) throw new Error(`${setting} is not a guarded setting.`);
  return found;
}
