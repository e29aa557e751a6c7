/**
 * The outbox's words: the offline core keeps reasons and codes (a note, a refusal, a paused
 * queue), and these word them in the interface language when they are shown, so a language
 * switch re-words them. Rows written by earlier versions hold their words instead (a string):
 * they are shown as they were stored.
 *
 * The shapes below are the offline core's own (renderer/offline/db/schema.ts `OutboxNote`,
 * outbox/redemption-queue.ts `QueueFieldProblems`, outbox/replayer.ts `ReplayPause`), as these
 * words read them: lib/ imports nothing of the core, and a code the core adds that is not
 * worded here fails the type check where the store or view passes it in.
 */
import { t } from '../i18n';
import { formatCount } from '../i18n/format';
import { claimedElsewhereWords } from './counter-words';
import type { StoredNote } from '../vocabulary/outbox';
import type { QueueFieldProblems } from '../vocabulary/rewards';
import { conflictNote, likelyOursWords } from './reconciliation-words';

/** A note in words; null when there is none. */
export function noteWords(note: StoredNote | undefined): string | null {
  if (note === null || note === undefined || note === '') return null;
  if (typeof note === 'string') return note;
  switch (note.code) {
    case 'confirmed_unread':
      return t('outboxQueue.confirmedUnread');
    case 'conflict':
      return conflictNote(note.attribution, note.status);
    case 'refused':
      // The bridge's own message, already in the words it chose.
      return note.said;
    case 'claimed_elsewhere':
      return claimedElsewhereWords(note);
  }
}

/** An outbox item's note, unless it only repeats the error the screen already says. */
export function itemNoteWords(item: { note: StoredNote; lastError: { message: string } | null }): string | null {
  const said =
    item.note !== null && typeof item.note === 'object' && item.note.code === 'refused' ? item.note.said : item.note;
  if (typeof said === 'string' && said === item.lastError?.message) return null;
  return noteWords(item.note);
}

/**
 * A journal entry's note. A redemption decided by its time is "most likely this till's":
 * worded from the attempt's time, also for entries of earlier versions that said "confirmed".
 * An attempt refused because another till of the shop held the reward is worded from that
 * till and its time (`heldBy`), also where an earlier version kept words as its note.
 */
export function entryNoteWords(entry: {
  outcome: string;
  note: StoredNote;
  attemptAt?: string | null;
  heldBy?: { till: string; at: string } | null;
}): string | null {
  const oldConfirmed = typeof entry.note === 'string' && entry.note.startsWith('Confirmed');
  if (entry.outcome === 'redeemed_answer_lost' && (entry.attemptAt || !entry.note || oldConfirmed)) {
    return likelyOursWords(entry.attemptAt);
  }
  if (entry.outcome === 'refused_elsewhere' && entry.heldBy) {
    return noteWords({ code: 'claimed_elsewhere', till: entry.heldBy.till, at: entry.heldBy.at });
  }
  return noteWords(entry.note);
}

/**
 * Why the queue is paused. Rows written by older versions also carry their English words
 * (`message`); they say the same as the reason, and are shown only for a reason this
 * version does not know.
 */
export function replayPauseWords(pause: { reason: string; message?: string }): string {
  if (pause.reason === 'unauthorized' || pause.message === undefined) return t('outboxQueue.keyRejected');
  return pause.message;
}

/** Each field the outbox refused, in its own words, by the service's name of the field. */
export function queueFieldWords(problems: QueueFieldProblems): Record<string, string> {
  const { name, phone, birthday, order_reference: order } = problems;
  const fields: Record<string, string> = {};
  if (name) fields.name = t('customers.fields.nameMissing');
  if (phone) fields.phone = t('outboxQueue.phoneIncomplete');
  if (birthday) fields.birthday = t('customers.fields.birthdayFormat');
  if (order) fields.order_reference = t('outboxQueue.orderAtMost', { max: formatCount(order.max) });
  return fields;
}

/** What the cashier is told when the outbox refuses to queue: the whole, and each field's own words. */
export function queueRefusalWords(
  refusal: { reason: 'offline_redemption_disabled' } | { reason: 'invalid_input'; fields: QueueFieldProblems },
): { message: string; fields: Record<string, string> } {
  if (refusal.reason === 'offline_redemption_disabled') {
    return { message: t('outboxQueue.offlineRedemptionOff'), fields: {} };
  }
  // A too long order reference is the one refusal of a redemption's fields; a registration's say "check the fields".
  const message = refusal.fields.order_reference ? t('outboxQueue.orderTooLong') : t('errors.validation.title');
  return { message, fields: queueFieldWords(refusal.fields) };
}
