import type { BridgeError, ErrorKind } from '../../common/contract';
import { t, tPlural, type MessageKey } from '../i18n';
import { formatCount } from '../i18n/format';

/**
 * The one place where a failed call becomes words for the cashier. Stores decide on
 * `error.kind`; views show what this returns. Nothing here repeats the service's raw
 * message for kinds where it could be technical.
 */
export interface ErrorWords {
  /** One short sentence: what happened. */
  title: string;
  /** What the cashier can do about it. */
  advice: string;
}

/** What the cashier was trying to do, so "not found" can say what was not found. */
export type ErrorSubject = 'customer' | 'reward' | 'settings' | 'general';

interface WordKeys {
  title: MessageKey;
  advice: MessageKey;
}

const NOT_FOUND: Record<ErrorSubject, WordKeys> = {
  customer: { title: 'errors.notFound.customer.title', advice: 'errors.notFound.customer.advice' },
  reward: { title: 'errors.notFound.reward.title', advice: 'errors.notFound.reward.advice' },
  settings: { title: 'errors.notFound.settings.title', advice: 'errors.notFound.settings.advice' },
  general: { title: 'errors.notFound.general.title', advice: 'errors.notFound.general.advice' },
};

const WORDS: Record<Exclude<ErrorKind, 'not_found' | 'rate_limited'>, WordKeys> = {
  offline: { title: 'errors.offline.title', advice: 'errors.offline.advice' },
  timeout: { title: 'errors.timeout.title', advice: 'errors.timeout.advice' },
  unauthorized: { title: 'errors.unauthorized.title', advice: 'errors.unauthorized.advice' },
  validation: { title: 'errors.validation.title', advice: 'errors.validation.advice' },
  reward_unavailable: { title: 'errors.rewardUnavailable.title', advice: 'errors.rewardUnavailable.advice' },
  server: { title: 'errors.server.title', advice: 'errors.server.advice' },
  bad_response: { title: 'errors.badResponse.title', advice: 'errors.badResponse.advice' },
};

/** In the interface language at the moment of the call: call it from a computed or a render. */
export function describeError(
  error: Pick<BridgeError, 'kind' | 'retryAfterMs'>,
  subject: ErrorSubject = 'general',
): ErrorWords {
  if (error.kind === 'rate_limited') {
    const seconds = error.retryAfterMs ? Math.max(1, Math.ceil(error.retryAfterMs / 1000)) : null;
    return {
      title: t('errors.rateLimited.title'),
      advice: seconds
        ? tPlural('errors.rateLimited.adviceSeconds', seconds, { seconds: formatCount(seconds) })
        : t('errors.rateLimited.adviceMoment'),
    };
  }
  const keys = error.kind === 'not_found' ? NOT_FOUND[subject] : (WORDS[error.kind] ?? WORDS.bad_response);
  return { title: t(keys.title), advice: t(keys.advice) };
}
