/**
 * The closed lists of choices a setting may take. Both runtimes need the values: the main
 * process validates a settings patch against them, the renderer offers them and picks its
 * catalogue. `contract.ts` re-exports them with the rest of the settings types.
 */

/**
 * The interface languages the till ships, each complete in the renderer's catalogues.
 * A language joins this list only with every message translated (see docs/languages.md).
 */
export const INTERFACE_LANGUAGES = ['en', 'ar'] as const;

export type InterfaceLanguage = (typeof INTERFACE_LANGUAGES)[number];

/** How numbers are written in Arabic: Arabic-Indic (٠١٢) or Latin (012) digits. */
export const ARABIC_DIGITS = ['arab', 'latn'] as const;

export type ArabicDigits = (typeof ARABIC_DIGITS)[number];

/** Light, dark, or whatever the operating system prefers. */
export const THEMES = ['system', 'light', 'dark'] as const;

export type Theme = (typeof THEMES)[number];
