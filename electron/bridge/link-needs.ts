import type { Settings } from '../../common/contract';
import type { LinkNeeds } from '../links/link-operations';
import type { AppCoreOptions } from './app-core-options';

/** The links' inbox and callback as the options and the settings say (app-core.ts joins the rest). */
export function linkNeedsOf(
  options: AppCoreOptions,
  settings: { get(): Settings },
  secrets: () => string[],
): Omit<LinkNeeds, 'log' | 'wording'> {
  return {
    inbox: {
      ...(options.linkRateLimit ? { rateLimit: options.linkRateLimit } : {}),
      ...(options.linkRateLimitNow ? { rateLimitNow: options.linkRateLimitNow } : {}),
    },
    callback: {
      url: () => settings.get().posCallbackUrl,
      secrets,
      ...(options.callbackRetryDelaysMs ? { retryDelaysMs: options.callbackRetryDelaysMs } : {}),
    },
    tillName: () => settings.get().tillName,
  };
}
