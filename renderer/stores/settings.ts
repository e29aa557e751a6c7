import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type {
  ArabicDigits,
  BridgeError,
  CashierEntry,
  InterfaceLanguage,
  Result,
  Settings,
  Theme,
  TillState,
} from '../../common/contract';
import { noApprover, type Approver } from '../lib/approval';
import { currencyOfCountry } from '../lib/money';
import { t } from '../i18n';
import { resolveLanguage } from '../i18n/languages';
import { till } from './till';

/** What the settings form edits. The API key is typed here and sent once; it is never read back. */
export interface SettingsDraft {
  baseUrl: string;
  apiKey: string;
  defaultCountry: string;
  branchId: string;
  tillName: string;
  /** Absent: leave the setting as it is. */
  allowOfflineRedemption?: boolean;
  /** This till's programme id; '' for none. Absent: leave the setting as it is. */
  programId?: string;
  /** Where outcomes of link-prepared redemptions are POSTed; '' for none. Absent: leave it as it is. */
  posCallbackUrl?: string;
  /** Absent: leave the setting as it is. */
  theme?: Theme;
  /** ISO 4217 code; '' takes the default country's currency. Absent: leave the setting as it is. */
  currency?: string;
  /** Hours between complete cache refreshes. Absent: leave the setting as it is. */
  refreshEveryHours?: number;
  /** The shop ledger (docs/shop-ledger.md). Absent: leave each as it is. */
  shopLedger?: boolean;
  shopRedeemWhenSplit?: boolean;
  /** Tills to ask directly, one `host:port` a line. */
  shopPeers?: string;
  shopLedgerPort?: number;
}

const FALLBACK_COUNTRY = 'SA';

/** The peer addresses typed one a line (or separated by commas or spaces), blanks dropped. */
export function peerLines(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
}

export const useSettingsStore = defineStore('settings', () => {
  const state = ref<TillState | null>(null);
  const loading = ref(false);
  const saving = ref(false);
  const error = ref<BridgeError | null>(null);
  /** Field name -> message, from the main process's validation. */
  const fieldErrors = ref<Record<string, string>>({});
  const savedAt = ref<Date | null>(null);

  const settings = computed<Settings | null>(() => state.value?.settings ?? null);
  const mode = computed(() => state.value?.mode ?? 'unconfigured');
  const isConfigured = computed(() => mode.value !== 'unconfigured');
  const isDemo = computed(() => mode.value === 'demo');
  const defaultCountry = computed(() => settings.value?.defaultCountry || FALLBACK_COUNTRY);
  const branchId = computed(() => settings.value?.branchId ?? null);
  const tillName = computed(() => settings.value?.tillName ?? '');
  /** Whether a redemption made while the service cannot be reached may be queued. */
  const allowOfflineRedemption = computed(() => settings.value?.allowOfflineRedemption === true);
  const cacheRefresh = computed(() => settings.value?.cacheRefresh);
  /** Whether an offline redemption goes ahead while a till of the shop cannot be reached (with a warning). */
  const shopRedeemWhenSplit = computed(() => settings.value?.shopRedeemWhenSplit !== false);
  /** The programme whose card points this till shows first; null when not chosen. */
  const programId = computed(() => settings.value?.programId ?? null);
  const theme = computed<Theme>(() => settings.value?.theme ?? 'system');
  /** The currency amounts are shown in: the one chosen, or the default country's. */
  const currency = computed(() => settings.value?.currency ?? currencyOfCountry(defaultCountry.value));
  /** "set, ending in 1234" — all the renderer ever knows of the key. */
  const keyDescription = computed(() => {
    const key = state.value?.key;
    if (!key?.set) return t('settings.key.notSet');
    return key.lastFour ? t('settings.key.setEndingIn', { lastFour: key.lastFour }) : t('settings.key.set');
  });
  /** The language chosen in Settings; null follows the operating system. */
  const language = computed<InterfaceLanguage | null>(() => settings.value?.language ?? null);
  /**
   * The language the interface speaks: the chosen one, else the OS's (as the main process
   * reports it; before the first answer, as the page's own `navigator.languages` says).
   */
  const interfaceLanguage = computed<InterfaceLanguage>(() =>
    resolveLanguage(language.value, state.value?.systemLanguages ?? globalThis.navigator?.languages ?? []),
  );
  const arabicDigits = computed<ArabicDigits>(() => settings.value?.arabicDigits ?? 'arab');
  const keyProtection = computed(() => state.value?.key.protection ?? null);
  /** What the organisation's policy locks, and why a policy did not apply (docs/operations.md#the-policy). */
  const managed = computed(() => state.value?.managed ?? { locked: [], problem: null, revision: 0 });
  const isLocked = (key: keyof Settings): boolean => managed.value.locked.includes(key);

  function accept(result: Result<TillState>): boolean {
    if (result.ok) {
      state.value = result.data;
      error.value = null;
      return true;
    }
    error.value = result.error;
    fieldErrors.value = { ...fieldErrors.value, ...(result.error.fields ?? {}) };
    return false;
  }

  async function load(): Promise<boolean> {
    loading.value = true;
    try {
      return accept(await till().getState());
    } finally {
      loading.value = false;
    }
  }

  async function startDemo(approve: Approver = noApprover): Promise<boolean> {
    saving.value = true;
    try {
      return accept(await approve('switchToDemo', () => till().startDemo()));
    } finally {
      saving.value = false;
    }
  }

  /** A form filled from the current settings; the key field always starts empty. */
  function draftFromState(): SettingsDraft {
    const current = settings.value;
    return {
      baseUrl: current?.baseUrl ?? '',
      apiKey: '',
      defaultCountry: current?.defaultCountry ?? FALLBACK_COUNTRY,
      branchId: current?.branchId ?? '',
      tillName: current?.tillName ?? '',
      allowOfflineRedemption: current?.allowOfflineRedemption ?? true,
      programId: current?.programId ?? '',
      posCallbackUrl: current?.posCallbackUrl ?? '',
      theme: current?.theme ?? 'system',
      currency: current?.currency ?? '',
      refreshEveryHours: current?.cacheRefresh?.everyHours ?? 24,
      shopLedger: current?.shopLedger ?? true,
      shopRedeemWhenSplit: current?.shopRedeemWhenSplit ?? true,
      shopPeers: (current?.shopPeers ?? []).join('\n'),
      shopLedgerPort: current?.shopLedgerPort ?? 47231,
    };
  }

  /**
   * Saves the settings, then the key if one was typed. The draft is the caller's and is
   * left untouched on failure, so nothing typed is lost; the key field is emptied only once
   * the main process has taken the key.
   */
  async function save(draft: SettingsDraft, approve: Approver = noApprover): Promise<boolean> {
    if (saving.value) return false;
    saving.value = true;
    fieldErrors.value = {};
    error.value = null;
    try {
      const ok = accept(
        await approve('changeService', () =>
          till().updateSettings({
            baseUrl: draft.baseUrl.trim() || null,
            defaultCountry: draft.defaultCountry.trim().toUpperCase(),
            branchId: draft.branchId.trim() || null,
            tillName: draft.tillName.trim(),
            ...(draft.allowOfflineRedemption !== undefined
              ? { allowOfflineRedemption: draft.allowOfflineRedemption }
              : {}),
            ...(draft.programId !== undefined ? { programId: draft.programId.trim() || null } : {}),
            ...(draft.posCallbackUrl !== undefined ? { posCallbackUrl: draft.posCallbackUrl.trim() || null } : {}),
            ...(draft.theme !== undefined ? { theme: draft.theme } : {}),
            ...(draft.currency !== undefined ? { currency: draft.currency.trim() || null } : {}),
            ...(draft.shopLedger !== undefined ? { shopLedger: draft.shopLedger } : {}),
            ...(draft.shopRedeemWhenSplit !== undefined ? { shopRedeemWhenSplit: draft.shopRedeemWhenSplit } : {}),
            ...(draft.shopPeers !== undefined ? { shopPeers: peerLines(draft.shopPeers) } : {}),
            ...(draft.shopLedgerPort !== undefined ? { shopLedgerPort: draft.shopLedgerPort } : {}),
            ...(draft.refreshEveryHours !== undefined && settings.value?.cacheRefresh
              ? { cacheRefresh: { ...settings.value.cacheRefresh, everyHours: draft.refreshEveryHours } }
              : {}),
          }),
        ),
      );
      if (!ok) return false;
      const key = draft.apiKey.trim();
      if (key) {
        const keyResult = await approve('changeKey', () => till().setApiKey({ apiKey: key }));
        if (!keyResult.ok && keyResult.error.fields === undefined) {
          // Show a key problem beside the key field, never with the key in it.
          keyResult.error.fields = { apiKey: keyResult.error.message };
        }
        if (!accept(keyResult)) return false;
        draft.apiKey = '';
      }
      savedAt.value = new Date();
      return true;
    } finally {
      saving.value = false;
    }
  }

  /**
   * Saves one display preference at once (a language or digits picker applies on choice,
   * without the form's Save): the interface follows as soon as the main process has it.
   */
  async function savePreferences(patch: {
    language?: InterfaceLanguage | null;
    arabicDigits?: ArabicDigits;
  }): Promise<boolean> {
    saving.value = true;
    try {
      return accept(await till().updateSettings(patch));
    } finally {
      saving.value = false;
    }
  }

  /** Sets, replaces or removes (null) the manager PIN; once one is set, with the manager's approval. */
  async function setManagerPin(pin: string | null, approve: Approver = noApprover): Promise<boolean> {
    saving.value = true;
    fieldErrors.value = {};
    try {
      return accept(await approve('changePin', () => till().setManagerPin({ pin })));
    } finally {
      saving.value = false;
    }
  }

  /** Saves Settings' list of cashiers at once (its own part of the screen, apart from the form). */
  async function saveCashiers(cashiers: CashierEntry[], approve: Approver = noApprover): Promise<boolean> {
    saving.value = true;
    fieldErrors.value = {};
    try {
      return accept(await approve('changeCashiers', () => till().updateSettings({ cashiers })));
    } finally {
      saving.value = false;
    }
  }

  async function clearKey(approve: Approver = noApprover): Promise<boolean> {
    saving.value = true;
    try {
      return accept(await approve('changeKey', () => till().clearApiKey()));
    } finally {
      saving.value = false;
    }
  }

  return {
    state,
    loading,
    saving,
    error,
    fieldErrors,
    savedAt,
    settings,
    mode,
    isConfigured,
    isDemo,
    defaultCountry,
    branchId,
    tillName,
    allowOfflineRedemption,
    shopRedeemWhenSplit,
    cacheRefresh,
    programId,
    theme,
    currency,
    keyDescription,
    keyProtection,
    managed,
    isLocked,
    language,
    interfaceLanguage,
    arabicDigits,
    load,
    savePreferences,
    saveCashiers,
    setManagerPin,
    startDemo,
    draftFromState,
    save,
    clearKey,
  };
});
