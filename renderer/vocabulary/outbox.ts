/**
 * The codes of the outbox and the journal, as the offline core stores them
 * (offline/db/schema.ts) and the words and the CSV read them (lib/outbox-words.ts,
 * lib/reconciliation-words.ts, lib/journal-csv.ts).
 */

export type OutboxState = 'pending' | 'failed' | 'conflict';

/** What a conflict's reconciliation found, so that the words say what is known and no more. */
export interface Attribution {
  verdict:
    | 'outside_attempts' // redeemed at a time outside every unanswered attempt of this till
    | 'no_unanswered_attempt' // this till never sent a request the service could have acted on unheard
    | 'clock_unknown' // this till had unanswered attempts, but the service's clock was unknown
    | 'not_redeemed' // the service refused it, and does not show it redeemed (e.g. expired)
    | 'not_found'; // the service no longer finds this code for this phone
  redeemedAt: string | null;
  /** Service-clock ISO starts of this till's unanswered attempts. */
  attemptsAt: string[];
  /**
   * Another till of the shop that claimed this reward offline (its name, and when by its
   * clock), from this till's shop ledger: most likely whose redemption the service holds.
   * Absent on items reconciled before the ledger, or when no other till claimed it.
   */
  claimedBy?: { till: string; at: string };
}

/**
 * What a note of the outbox or the journal says, as a code with the data its words need: the
 * view layer words it when shown (lib/outbox-words.ts), in the interface language of then.
 */
export type OutboxNote =
  /** The service confirmed a redemption (a 2xx), but its answer could not be read in full. */
  | { code: 'confirmed_unread' }
  /** The service refused a replayed redemption of a reward it holds redeemed, not by this till. */
  | { code: 'conflict'; attribution: Attribution; status?: string }
  /** The service refused the item; `said`: the bridge's own message, passed on as said. */
  | { code: 'refused'; said: string }
  /** Refused at this till: another till of the shop claimed the reward first (its name, when). */
  | { code: 'claimed_elsewhere'; till: string; at: string };

/** A note as stored: a code, the words of an earlier version (shown as stored), or none. */
export type StoredNote = OutboxNote | string | null;

export type JournalOutcome =
  | 'redeemed' // the service confirmed the redemption
  | 'redeemed_answer_lost' // 422 on replay, redeemed during one of our unanswered attempts: most likely ours
  | 'registered'
  | 'conflict_acknowledged' // used elsewhere while we were offline; a person reviewed it
  | 'failure_acknowledged' // refused by the service; a person reviewed it
  | 'corrected' // a customer's details corrected (online only: corrections are not queued)
  | 'refused_elsewhere' // refused here: another till of the shop redeemed it (`heldBy`), not yet sent
  | 'restored' // put back in the outbox from the main process's copy: the page's database had lost it
  | 'not_kept'; // taken back at once: the main process's copy could not keep it, and the cashier was told no
