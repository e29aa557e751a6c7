/**
 * The words of reconciliation, in one place for the Outbox screen, the journal and its CSV.
 * They say what is known and no more: a time inside this till's unanswered attempt is
 * evidence ("most likely this till's"), not confirmation; a conflict never says "this
 * till's redemption was not made" unless no request of this till could have made it.
 */
import type { Attribution } from './db';

const TIME = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', second: '2-digit' });
const DAY_TIME = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

function clockTime(iso: string, withDay = false): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return (withDay ? DAY_TIME : TIME).format(date);
}

/** A redemption attributed to this till by its time. */
export function likelyOursWords(attemptAt: string | null | undefined): string {
  return attemptAt
    ? `Redeemed during this till’s unanswered attempt at ${clockTime(attemptAt)} — most likely this till’s.`
    : 'Redeemed while this till’s answer was lost — most likely this till’s.';
}

export interface ConflictWords {
  title: string;
  /** What is known, in plain words. */
  advice: string;
}

export function conflictWords(attribution: Attribution | undefined, fallback?: { status?: string; redeemedAt?: string | null }): ConflictWords {
  const redeemedAt = attribution?.redeemedAt ?? fallback?.redeemedAt ?? null;
  const when = redeemedAt ? ` on ${clockTime(redeemedAt, true)} (the service’s time)` : '';
  const attempts = attribution?.attemptsAt ?? [];
  const ourAttempts =
    attempts.length === 0
      ? ''
      : ` This till’s unanswered attempt${attempts.length === 1 ? ' was' : 's were'} at ${attempts.map((a) => clockTime(a)).join(', ')}.`;
  switch (attribution?.verdict) {
    case 'no_unanswered_attempt':
      return {
        title: 'The reward was already used: not by this till.',
        advice: `The loyalty service says it was redeemed${when}. Every request this till sent was answered or never reached the service, so this till’s redemption was not made.`,
      };
    case 'outside_attempts':
      return {
        title: 'The reward was already used, most likely elsewhere.',
        advice: `The loyalty service says it was redeemed${when}, outside every attempt of this till whose answer was lost.${ourAttempts} So it was most likely redeemed by another till or channel, and this till’s redemption most likely not made.`,
      };
    case 'clock_unknown':
      return {
        title: 'The reward was already used; whose redemption it was cannot be told.',
        advice: `The loyalty service says it was redeemed${when}. This till sent a request whose answer was lost, but could not read the service’s clock at the time, so it cannot tell whether that request made it.`,
      };
    case 'not_found':
      return {
        title: 'The loyalty service refused this redemption and no longer finds this code for this phone.',
        advice: 'Whether the reward was used is not known to this till.',
      };
    case 'not_redeemed':
    default: {
      const status = fallback?.status;
      return {
        title: `The loyalty service refused this redemption${status ? `: the reward is ${status} there` : ''}.`,
        advice: 'The service does not show it redeemed, so no redemption of it was recorded.',
      };
    }
  }
}

/** A conflict in one line, for the journal and its CSV. */
export function conflictNote(attribution: Attribution, status?: string): string {
  const words = conflictWords(attribution, status ? { status } : undefined);
  return `${words.title} ${words.advice}`;
}
