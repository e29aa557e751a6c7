import { defineStore } from 'pinia';
import { ref } from 'vue';
import type {
  ArabicDigits,
  BridgeError,
  CashierEntry,
  InterfaceLanguage,
  Result,
  TillState,
} from '../../common/contract';
import { noApprover, type Approver } from '../lib/approval';
import { draftOf, patchOf, type SettingsDraft } from './settings/draft';
import { useSettingsReadings } from './settings/readings';
import { till } from './till';

export { peerLines, type SettingsDraft } from './settings/draft';

/**
 * The till's settings as the main process last gave them, read through getters
 * (renderer/stores/settings/readings.ts), and every change to them, each sent to the main
 * process (with the manager's approval where it asks for one) and its answer taken as the new state.
 */
export const useSettingsStore = defineStore('settings', () => {
  const state = ref<TillState | null>(null);
  const loading = ref(false);
  const saving = ref(false);
  const error = ref<BridgeError | null>(null);
  /** Field name -> message, from the main process's validation. */
  const fieldErrors = ref<Record<string, string>>({});
  const savedAt = ref<Date | null>(null);

  const readings = useSettingsReadings(state);
  const { settings } = readings;

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

  /** One change sent while the store says it is saving; its answer is taken as the new state. */
  async function send(change: () => Promise<Result<TillState>>, clearFieldErrors = false): Promise<boolean> {
    saving.value = true;
    if (clearFieldErrors) fieldErrors.value = {};
    try {
      return accept(await change());
    } finally {
      saving.value = false;
    }
  }

  async function startDemo(approve: Approver = noApprover): Promise<boolean> {
    return send(() => approve('switchToDemo', () => till().startDemo()));
  }

  /** A form filled from the current settings; the key field always starts empty. */
  function draftFromState(): SettingsDraft {
    return draftOf(settings.value);
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
      const ok = accept(await approve('changeService', () => till().updateSettings(patchOf(draft, settings.value))));
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
    return send(() => till().updateSettings(patch));
  }

  /** Sets, replaces or removes (null) the manager PIN; once one is set, with the manager's approval. */
  async function setManagerPin(pin: string | null, approve: Approver = noApprover): Promise<boolean> {
    return send(() => approve('changePin', () => till().setManagerPin({ pin })), true);
  }

  /** Saves Settings' list of cashiers at once (its own part of the screen, apart from the form). */
  async function saveCashiers(cashiers: CashierEntry[], approve: Approver = noApprover): Promise<boolean> {
    return send(() => approve('changeCashiers', () => till().updateSettings({ cashiers })), true);
  }

  /** Saves the days the journal keeps customers' details (docs/privacy.md), on its own. */
  async function saveJournalDays(days: number): Promise<boolean> {
    return send(() => till().updateSettings({ journalPersonalDays: days }), true);
  }

  async function clearKey(approve: Approver = noApprover): Promise<boolean> {
    return send(() => approve('changeKey', () => till().clearApiKey()));
  }

  return {
    state,
    loading,
    saving,
    error,
    fieldErrors,
    savedAt,
    ...readings,
    load,
    savePreferences,
    saveCashiers,
    setManagerPin,
    startDemo,
    draftFromState,
    save,
    saveJournalDays,
    clearKey,
  };
});
