import { computed, type Ref } from 'vue';
import type { ArabicDigits, InterfaceLanguage, Settings, Theme, TillState } from '../../../common/contract';
import { t } from '../../i18n';
import { resolveLanguage } from '../../i18n/languages';
import { currencyOfCountry } from '../../lib/money';
import { FALLBACK_COUNTRY } from './draft';

/**
 * The settings store's getters: each setting as the rest of the till reads it, with its
 * default where none is set, read from the main process's last word on the till's state.
 */
export function useSettingsReadings(state: Ref<TillState | null>) {
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

  return {
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
  };
}
