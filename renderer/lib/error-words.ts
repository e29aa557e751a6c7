import type { BridgeError, ErrorKind } from '../../electron/contract';

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

const NOT_FOUND: Record<ErrorSubject, ErrorWords> = {
  customer: {
    title: 'No such customer.',
    advice: 'Search again by phone number or name.',
  },
  reward: {
    title: 'No reward with this code for this phone number.',
    advice: 'Check the code and that the phone number is the customer’s own.',
  },
  settings: {
    title: 'The loyalty service address does not answer as expected.',
    advice: 'Check the service URL in Settings.',
  },
  general: {
    title: 'Not found.',
    advice: 'Check what you typed and try again.',
  },
};

const WORDS: Record<Exclude<ErrorKind, 'not_found' | 'rate_limited'>, ErrorWords> = {
  offline: {
    title: 'Can’t reach the loyalty service.',
    advice: 'Check the till’s network connection, then try again. Finish the sale as usual meanwhile.',
  },
  timeout: {
    title: 'The loyalty service is taking too long to answer.',
    advice: 'Try again in a moment.',
  },
  unauthorized: {
    title: 'This till isn’t allowed to use the loyalty service.',
    advice: 'The API key is missing or was refused. Ask a manager to check Settings.',
  },
  validation: {
    title: 'Some details need correcting.',
    advice: 'Check the highlighted fields; nothing you typed has been lost.',
  },
  reward_unavailable: {
    title: 'This reward can’t be used.',
    advice: 'It has already been used, has expired, or the card has too few points.',
  },
  server: {
    title: 'The loyalty service had a problem.',
    advice: 'Try again. If it keeps happening, tell a manager.',
  },
  bad_response: {
    title: 'The loyalty service sent an answer the till can’t read.',
    advice: 'Try again. If it keeps happening, tell a manager.',
  },
};

export function describeError(error: Pick<BridgeError, 'kind' | 'retryAfterMs'>, subject: ErrorSubject = 'general'): ErrorWords {
  if (error.kind === 'not_found') return NOT_FOUND[subject];
  if (error.kind === 'rate_limited') {
    const seconds = error.retryAfterMs ? Math.max(1, Math.ceil(error.retryAfterMs / 1000)) : null;
    return {
      title: 'The loyalty service is busy.',
      advice: seconds ? `Try again in ${seconds} second${seconds === 1 ? '' : 's'}.` : 'Try again in a moment.',
    };
  }
  return WORDS[error.kind] ?? WORDS.bad_response;
}
