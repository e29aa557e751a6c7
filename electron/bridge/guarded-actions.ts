import type { Settings } from '../../common/contract';
import { GUARDED_SETTINGS, actionOfSetting, type GuardedAction } from '../../common/guarded-actions';
import { changedSettings } from '../storage/settings-change';

/**
 * The main process's side of the guarded actions (common/guarded-actions.ts): what each is
 * called in the log, and which action a change to the settings is. The check itself, a right
 * PIN within the last few minutes, is `manager-approval.ts`'s.
 */

/** Every guarded setting is a setting: a name misspelt in the list fails the type check here. */
const GUARDED_ARE_SETTINGS: ReadonlyArray<keyof Settings> = GUARDED_SETTINGS;

/** How the log names a refused action: never with what was asked for (a URL, a name). */
export const ACTION_LOG_WORDS: Record<GuardedAction, string> = {
  openSettings: 'opening Settings',
  acknowledge: 'acknowledging',
  exportJournal: 'saving an export',
  saveSupportFile: 'saving a support file',
  changeKey: 'replacing or removing the API key',
  changeService: 'changing where the till sends its key, outcomes or branch',
  offlineRedemption: 'changing offline redemption',
  changeShopLedger: 'changing the shop ledger',
  changeCashiers: 'changing the cashier list',
  switchToDemo: 'switching to the demo',
  gatherShopReport: 'gathering the shop’s report',
  changePin: 'changing the manager PIN',
  forgetTill: 'forgetting this till’s data',
};

/**
 * The guarded action a change to the settings would take, or null when it changes no
 * guarded setting (the same values sent again are no change). A change that is not valid
 * is null too: the store refuses it whole, so nothing of it is saved either way.
 */
export function actionOfSettingsChange(patch: unknown, current: Settings): GuardedAction | null {
  const changed = changedSettings(patch, current, GUARDED_ARE_SETTINGS);
  const first = changed?.[0];
  return first === undefined ? null : actionOfSetting(first as (typeof GUARDED_SETTINGS)[number]);
}
