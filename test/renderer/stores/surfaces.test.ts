import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, expect, test } from 'vitest';
import { useCustomerDisplayStore } from '../../../renderer/stores/customer-display';
import { useCustomersStore } from '../../../renderer/stores/customers';
import { useLinksStore } from '../../../renderer/stores/links';
import { useOfflineStore } from '../../../renderer/stores/offline';
import { useRewardsStore } from '../../../renderer/stores/rewards';
import { useSettingsStore } from '../../../renderer/stores/settings';
import { installFakeTill } from '../support/fake-till';

// The stores whose setup is composed of concerns (renderer/stores/<store>/): what views and
// tests reach of each, by kind, as Pinia sees it (state, getter or action). Moving a concern
// to a file of its own must leave this as it is.

type Kind = 'state' | 'getter' | 'action';

function surfaceOf(store: { $state: object }): Record<Kind, string[]> {
  const members = store as unknown as Record<string, unknown>;
  const surface: Record<Kind, string[]> = { state: [], getter: [], action: [] };
  for (const key of Object.keys(store).filter((name) => !/^[$_]/.test(name))) {
    const kind: Kind = key in store.$state ? 'state' : typeof members[key] === 'function' ? 'action' : 'getter';
    surface[kind].push(key);
  }
  for (const kind of Object.keys(surface) as Kind[]) surface[kind].sort();
  return surface;
}

beforeEach(() => {
  setActivePinia(createPinia());
  installFakeTill();
});

test('each composed store keeps its state, getters and actions', () => {
  const surfaces = {
    customers: surfaceOf(useCustomersStore()),
    rewards: surfaceOf(useRewardsStore()),
    settings: surfaceOf(useSettingsStore()),
    offline: surfaceOf(useOfflineStore()),
    customerDisplay: surfaceOf(useCustomerDisplayStore()),
    links: surfaceOf(useLinksStore()),
  };
  expect(surfaces).toMatchInlineSnapshot(`
    {
      "customerDisplay": {
        "action": [
          "loadScreens",
          "receive",
          "saveSettings",
          "start",
          "stop",
          "toggleBlank",
        ],
        "getter": [
          "model",
          "view",
        ],
        "state": [
          "address",
          "attached",
          "blanked",
          "enteredByCustomer",
          "fieldErrors",
          "lookingUp",
          "notFound",
          "screens",
        ],
      },
      "customers": {
        "action": [
          "applyRedemption",
          "clearSearch",
          "dismissNotice",
          "goToPage",
          "markPending",
          "moveSelection",
          "open",
          "openByCard",
          "openByPhone",
          "register",
          "reloadCurrent",
          "saveCorrection",
          "search",
          "startCorrect",
          "startRegister",
        ],
        "getter": [
          "hasSearched",
          "lastPage",
          "meta",
          "page",
          "reading",
          "results",
          "resultsAreCurrent",
          "resultsFromCache",
          "searchError",
          "searchedFor",
        ],
        "state": [
          "activeIndex",
          "current",
          "customerError",
          "draft",
          "fieldErrors",
          "loadingCustomer",
          "notice",
          "origin",
          "query",
          "recent",
          "saveError",
          "saving",
          "searching",
        ],
      },
      "links": {
        "action": [
          "accept",
          "cashierBusy",
          "dismiss",
          "listen",
          "noteKey",
          "receive",
          "stop",
        ],
        "getter": [],
        "state": [
          "held",
          "notice",
          "opened",
        ],
      },
      "offline": {
        "action": [
          "acknowledge",
          "deleteDatabase",
          "dismissRestored",
          "exportJournal",
          "loadOutbox",
          "noteReachable",
          "noteReconciled",
          "programmesSeen",
          "resumeAfterKeyChange",
          "retryItem",
          "retryNow",
          "services",
          "start",
          "stop",
        ],
        "getter": [
          "isOffline",
          "needsAttention",
          "pause",
        ],
        "state": [
          "connection",
          "counts",
          "items",
          "journal",
          "keyProblem",
          "lastReplay",
          "refresh",
          "replaying",
          "restored",
          "tillClockOffMs",
        ],
      },
      "rewards": {
        "action": [
          "askAtTheOtherTill",
          "check",
          "redeem",
          "start",
        ],
        "getter": [
          "answerLost",
          "canRedeem",
          "cannotQueueNote",
          "checkError",
          "checkedFor",
          "claimedElsewhere",
          "customerPhone",
          "earlierAttemptUnanswered",
          "offlineCheck",
          "offlineRedemptionForbidden",
          "offlineRedemptionOffWords",
          "pendingHere",
          "queued",
          "redeemError",
          "redeemedAt",
          "redemption",
          "refusedNote",
          "reward",
          "splitQuestion",
          "splitTills",
          "unavailableNote",
          "unreachableNote",
          "unreachableTills",
        ],
        "state": [
          "checkOutcome",
          "checking",
          "draft",
          "fieldErrors",
          "forCustomer",
          "fromLink",
          "redeemOutcome",
          "redeeming",
        ],
      },
      "settings": {
        "action": [
          "clearKey",
          "draftFromState",
          "isLocked",
          "load",
          "save",
          "saveCashiers",
          "saveJournalDays",
          "savePreferences",
          "setManagerPin",
          "startDemo",
        ],
        "getter": [
          "allowOfflineRedemption",
          "arabicDigits",
          "branchId",
          "cacheRefresh",
          "currency",
          "defaultCountry",
          "interfaceLanguage",
          "isConfigured",
          "isDemo",
          "keyDescription",
          "keyProtection",
          "language",
          "managed",
          "mode",
          "programId",
          "settings",
          "shopRedeemWhenSplit",
          "theme",
          "tillName",
        ],
        "state": [
          "error",
          "fieldErrors",
          "loading",
          "savedAt",
          "saving",
          "state",
        ],
      },
    }
  `);
});
