import type { Settings, SettingsPatch, Theme } from '../../../common/contract';

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

export const FALLBACK_COUNTRY = 'SA';

/** The peer addresses typed one a line (or separated by commas or spaces), blanks dropped. */
export function peerLines(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
}

/** A form filled from the settings; the key field always starts empty. */
export function draftOf(current: Settings | null): SettingsDraft {
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
 * What a save of the form sends: every field trimmed, blanks as null (none), and the fields
 * the draft leaves out (absent) not sent at all. The key goes apart, by its own operation.
 */
export function patchOf(draft: SettingsDraft, current: Settings | null): SettingsPatch {
  return {
    baseUrl: draft.baseUrl.trim() || null,
    defaultCountry: draft.defaultCountry.trim().toUpperCase(),
    branchId: draft.branchId.trim() || null,
    tillName: draft.tillName.trim(),
    ...(draft.allowOfflineRedemption !== undefined ? { allowOfflineRedemption: draft.allowOfflineRedemption } : {}),
    ...(draft.programId !== undefined ? { programId: draft.programId.trim() || null } : {}),
    ...(draft.posCallbackUrl !== undefined ? { posCallbackUrl: draft.posCallbackUrl.trim() || null } : {}),
    ...(draft.theme !== undefined ? { theme: draft.theme } : {}),
    ...(draft.currency !== undefined ? { currency: draft.currency.trim() || null } : {}),
    ...(draft.shopLedger !== undefined ? { shopLedger: draft.shopLedger } : {}),
    ...(draft.shopRedeemWhenSplit !== undefined ? { shopRedeemWhenSplit: draft.shopRedeemWhenSplit } : {}),
    ...(draft.shopPeers !== undefined ? { shopPeers: peerLines(draft.shopPeers) } : {}),
    ...(draft.shopLedgerPort !== undefined ? { shopLedgerPort: draft.shopLedgerPort } : {}),
    ...(draft.refreshEveryHours !== undefined && current?.cacheRefresh
      ? { cacheRefresh: { ...current.cacheRefresh, everyHours: draft.refreshEveryHours } }
      : {}),
  };
}
