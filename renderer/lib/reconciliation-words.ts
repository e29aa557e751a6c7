/**
 * The words of reconciliation, in one place for the Outbox screen, the journal and its CSV.
 * They say what is known and no more: a time inside this till's unanswered attempt is
 * evidence ("most likely this till's"), not confirmation; a conflict never says "this
 * till's redemption was not made" unless no request of this till could have made it.
 *
 * The words come from the catalogues (`reconciliation.*`) in the interface language, and
 * times to the second through i18n/format.ts, in the interface's digits.
 */
import { t, tPlural } from '../i18n';
import { formatDateTimeSeconds, formatTimeSeconds } from '../i18n/format';
import { isolate } from '../i18n/isolate';
import type { Attribution } from '../vocabulary/outbox';

function clockTime(iso: string, withDay = false): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return withDay ? formatDateTimeSeconds(date) : formatTimeSeconds(date);
}

/** A redemption attributed to this till by its time. */
export function likelyOursWords(attemptAt: string | null | undefined): string {
  return attemptAt
    ? t('reconciliation.likelyOursAt', { time: clockTime(attemptAt) })
    : t('reconciliation.likelyOursLost');
}

export interface ConflictWords {
  title: string;
  /** What is known, in plain words. */
  advice: string;
}

export function conflictWords(
  attribution: Attribution | null | undefined,
  fallback?: { status?: string; redeemedAt?: string | null },
): ConflictWords {
  const redeemedAt = attribution?.redeemedAt ?? fallback?.redeemedAt ?? null;
  const said = redeemedAt
    ? t('reconciliation.serviceSaysOn', { date: clockTime(redeemedAt, true) })
    : t('reconciliation.serviceSays');
  const attempts = attribution?.attemptsAt ?? [];
  const claimedBy = attribution?.claimedBy;
  if (claimedBy && (attribution.verdict === 'no_unanswered_attempt' || attribution.verdict === 'outside_attempts')) {
    // The shop's ledger names the till that redeemed it offline first: the words say so.
    return {
      title: t('reconciliation.claimedElsewhere.title', {
        till: isolate(claimedBy.till),
        time: clockTime(claimedBy.at, true),
      }),
      advice: `${said} ${t(
        attribution.verdict === 'no_unanswered_attempt'
          ? 'reconciliation.claimedElsewhere.advice'
          : 'reconciliation.claimedElsewhere.adviceLikely',
      )}`,
    };
  }
  const ourAttempts =
    attempts.length === 0
      ? ''
      : ` ${tPlural('reconciliation.ourAttempts', attempts.length, { times: attempts.map((a) => clockTime(a)).join(t('reconciliation.listSeparator')) })}`;
  switch (attribution?.verdict) {
    case 'no_unanswered_attempt':
      return {
        title: t('reconciliation.notOurs.title'),
        advice: `${said} ${t('reconciliation.notOurs.advice')}`,
      };
    case 'outside_attempts':
      return {
        title: t('reconciliation.elsewhere.title'),
        advice: `${
          redeemedAt
            ? t('reconciliation.elsewhere.saidOn', { date: clockTime(redeemedAt, true) })
            : t('reconciliation.elsewhere.said')
        }${ourAttempts} ${t('reconciliation.elsewhere.advice')}`,
      };
    case 'clock_unknown':
      return {
        title: t('reconciliation.clockUnknown.title'),
        advice: `${said} ${t('reconciliation.clockUnknown.advice')}`,
      };
    case 'not_found':
      return {
        title: t('reconciliation.notFound.title'),
        advice: t('reconciliation.notFound.advice'),
      };
    case 'not_redeemed':
    default: {
      const status = fallback?.status;
      return {
        title: status ? t('reconciliation.refused.titleStatus', { status }) : t('reconciliation.refused.title'),
        advice: t('reconciliation.refused.advice'),
      };
    }
  }
}

/** A conflict in one line, for the journal and its CSV. */
export function conflictNote(attribution: Attribution, status?: string): string {
  const words = conflictWords(attribution, status ? { status } : undefined);
  return `${words.title} ${words.advice}`;
}
