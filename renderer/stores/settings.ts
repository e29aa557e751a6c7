import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { BridgeError, Result, Settings, TillState } from '../../electron/contract';
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
  /** Hours between complete cache refreshes. Absent: leave the setting as it is. */
  refreshEveryHours?: number;
}

const FALLBACK_COUNTRY = 'SA';

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
  /** The programme whose card points this till shows first; null when not chosen. */
  const programId = computed(() => settings.value?.programId ?? null);
  /** "set, ending in 1234" — all the renderer ever knows of the key. */
  const keyDescription = computed(() => {
    const key = state.value?.key;
    if (!key?.set) return 'not set';
    return key.lastFour ? `set, ending in ${key.lastFour}` : 'set';
  });
  const keyProtection = computed(() => state.value?.key.protection ?? null);

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

  async function startDemo(): Promise<boolean> {
    saving.value = true;
    try {
      return accept(await till().startDemo());
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
      refreshEveryHours: current?.cacheRefresh?.everyHours ?? 24,
    };
  }

  /**
   * Saves the settings, then the key if one was typed. The draft is the caller's and is
   * left untouched on failure, so nothing typed is lost; the key field is emptied only once
   * the main process has taken the key.
   */
  async function save(draft: SettingsDraft): Promise<boolean> {
    if (saving.value) return false;
    saving.value = true;
    fieldErrors.value = {};
    error.value = null;
    try {
      const ok = accept(
        await till().updateSettings({
          baseUrl: draft.baseUrl.trim() || null,
          defaultCountry: draft.defaultCountry.trim().toUpperCase(),
          branchId: draft.branchId.trim() || null,
          tillName: draft.tillName.trim(),
          ...(draft.allowOfflineRedemption !== undefined ? { allowOfflineRedemption: draft.allowOfflineRedemption } : {}),
          ...(draft.programId !== undefined ? { programId: draft.programId.trim() || null } : {}),
          ...(draft.refreshEveryHours !== undefined && settings.value?.cacheRefresh
            ? { cacheRefresh: { ...settings.value.cacheRefresh, everyHours: draft.refreshEveryHours } }
            : {}),
        }),
      );
      if (!ok) return false;
      const key = draft.apiKey.trim();
      if (key) {
        const keyResult = await till().setApiKey({ apiKey: key });
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

  async function clearKey(): Promise<boolean> {
    saving.value = true;
    try {
      return accept(await till().clearApiKey());
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
    cacheRefresh,
    programId,
    keyDescription,
    keyProtection,
    load,
    startDemo,
    draftFromState,
    save,
    clearKey,
  };
});
