import type { UpdatesPolicy } from '../policy/policy-schema';

export interface InstallWindow {
  /** Local hour (0-23) the window opens. */
  fromHour: number;
  /** Local hour it closes; before `fromHour` means past midnight. */
  toHour: number;
}

/** How this till updates itself: the build's defaults with the organisation's policy over them. */
export interface UpdateConfig {
  enabled: boolean;
  /** The generic feed's folder; null when neither the build nor the policy names one. */
  feedUrl: string | null;
  channel: string;
  /** The one version to install; null takes whatever newer version the feed offers. */
  pinVersion: string | null;
  installWindow: InstallWindow;
  checkEveryHours: number;
}

/** Night, when shops are shut: the same hours the offline cache refreshes in by default. */
export const DEFAULT_INSTALL_WINDOW: InstallWindow = Object.freeze({ fromHour: 2, toHour: 5 });
export const DEFAULT_CHECK_EVERY_HOURS = 6;

/**
 * The policy decides, the build's feed fills in: updates are on where there is a feed to
 * read and the policy does not turn them off.
 */
export function resolveUpdateConfig(
  policy: UpdatesPolicy | undefined,
  build: { feedUrl: string | null },
): UpdateConfig {
  const feedUrl = policy?.feedUrl ?? build.feedUrl;
  return {
    enabled: (policy?.enabled ?? true) && feedUrl !== null,
    feedUrl,
    channel: policy?.channel ?? 'latest',
    pinVersion: policy?.pinVersion ?? null,
    installWindow: policy?.installWindow ?? DEFAULT_INSTALL_WINDOW,
    checkEveryHours: policy?.checkEveryHours ?? DEFAULT_CHECK_EVERY_HOURS,
  };
}
