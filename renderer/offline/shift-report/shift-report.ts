/**
 * The end-of-shift report's figures, from the journal and the outbox: redemptions done,
 * queued, in conflict and failed, by reward and by cashier; the points deducted;
 * registrations and corrections. Done work counts from the start of the shift; what is
 * still open (waiting, in conflict, failed) counts whenever it was queued, since it still
 * needs someone: a day-end report must not miss a conflict from before the shift.
 *
 * Pure: the same entries give the same report, so the screen, its PDF and its CSV agree.
 */
import { detailsWereRemoved } from '../../../common/journal-retention';
import type { JournalEntry, OutboxItem } from '../db/schema';

/** `refused`: refused at this till because another till of the shop held the reward (nothing redeemed). */
export type RedemptionState = 'done' | 'queued' | 'conflict' | 'failed' | 'refused';

/** The states in the order the report shows them. */
export const REDEMPTION_STATES: readonly RedemptionState[] = Object.freeze([
  'done',
  'queued',
  'conflict',
  'failed',
  'refused',
]);

export type StateCounts = Record<RedemptionState, number>;

export interface RewardLine {
  /** The reward's name where the till knew it, else its code ('' for a code whose details were removed). */
  reward: string;
  /** Redemptions known only by a code the journal no longer keeps (docs/privacy.md#the-journal-after-its-days). */
  detailsRemoved?: true;
  counts: StateCounts;
  /** Points deducted by the redemptions done. */
  points: number;
}

export interface CashierLine {
  /** Null: work done while nobody was named, or whose cashier the journal no longer keeps. */
  cashier: string | null;
  /** The work of entries whose details were removed after their days: their cashier is not known. */
  detailsRemoved?: true;
  counts: StateCounts;
  points: number;
  registrations: number;
  corrections: number;
}

export interface ShiftReport {
  since: string;
  until: string;
  redemptions: StateCounts;
  /** Points deducted by the redemptions done (points rewards whose price the till knew). */
  pointsDeducted: number;
  byReward: RewardLine[];
  byCashier: CashierLine[];
  registrations: { done: number; queued: number; failed: number };
  corrections: number;
  /** Still in the outbox, oldest first. */
  open: OutboxItem[];
  /** How many entries of the period are counted without their details, removed after how many days (the most). */
  detailsRemoved?: { entries: number; afterDays: number };
}

/** The map key of the lines for entries whose details were removed: no cashier or reward is spelt so. */
const REMOVED = '\u0000details removed';

const none = (): StateCounts => ({ done: 0, queued: 0, conflict: 0, failed: 0, refused: 0 });

/** A journal entry's state, as the report counts it; null for what is not a redemption. */
function entryState(entry: JournalEntry): RedemptionState | null {
  if (entry.kind !== 'redeem') return null;
  switch (entry.outcome) {
    case 'redeemed':
    case 'redeemed_answer_lost':
      return 'done';
    case 'conflict_acknowledged':
      return 'conflict';
    case 'failure_acknowledged':
      return 'failed';
    case 'refused_elsewhere':
      return 'refused';
    default:
      return null;
  }
}

/** What an item still in the outbox counts as. */
export const OPEN_ITEM_STATE: Readonly<Record<OutboxItem['state'], RedemptionState>> = {
  pending: 'queued',
  conflict: 'conflict',
  failed: 'failed',
};

/** The entries done before `until` (ISO), all of them without one: a period's end is not included. */
export function journalBefore<T extends Pick<JournalEntry, 'doneAt'>>(journal: readonly T[], until?: string): T[] {
  if (until === undefined) return [...journal];
  const end = Date.parse(until);
  return journal.filter((entry) => Date.parse(entry.doneAt) < end);
}

export function buildShiftReport(input: {
  since: string;
  until: string;
  /**
   * The period ends now (`until` is the moment it was read): everything journalled so far is in
   * it, also what was journalled in that very millisecond, which a chosen end would leave out.
   */
  upToNow?: boolean;
  journal: readonly JournalEntry[];
  open: readonly OutboxItem[];
}): ShiftReport {
  const since = Date.parse(input.since);
  const redemptions = none();
  const rewards = new Map<string, RewardLine>();
  const cashiers = new Map<string | null, CashierLine>();
  const registrations = { done: 0, queued: 0, failed: 0 };
  let corrections = 0;
  let pointsDeducted = 0;
  const removed = { entries: 0, afterDays: 0 };

  const cashierLine = (cashier: string | null | undefined, stripped = false): CashierLine => {
    const key = stripped ? REMOVED : (cashier ?? null);
    let line = cashiers.get(key);
    if (!line) {
      line = {
        cashier: stripped ? null : (cashier ?? null),
        counts: none(),
        points: 0,
        registrations: 0,
        corrections: 0,
      };
      if (stripped) line.detailsRemoved = true;
      cashiers.set(key, line);
    }
    return line;
  };
  const redemption = (
    state: RedemptionState,
    reward: string,
    cashier: string | null | undefined,
    points: number | null | undefined,
    stripped = false,
  ) => {
    const deducted = state === 'done' && typeof points === 'number' ? points : 0;
    redemptions[state] += 1;
    pointsDeducted += deducted;
    const unknownReward = stripped && reward === '';
    const rewardKey = unknownReward ? REMOVED : reward;
    let line = rewards.get(rewardKey);
    if (!line) {
      line = { reward, counts: none(), points: 0 };
      if (unknownReward) line.detailsRemoved = true;
      rewards.set(rewardKey, line);
    }
    line.counts[state] += 1;
    line.points += deducted;
    const person = cashierLine(cashier, stripped);
    person.counts[state] += 1;
    person.points += deducted;
  };

  for (const entry of journalBefore(input.journal, input.upToNow ? undefined : input.until)) {
    if (!(Date.parse(entry.doneAt) >= since)) continue;
    const stripped = detailsWereRemoved(entry);
    if (stripped) {
      removed.entries += 1;
      const afterDays = entry.detailsRemoved?.afterDays ?? 0;
      removed.afterDays = Math.max(removed.afterDays, afterDays);
    }
    const state = entryState(entry);
    if (state) redemption(state, entry.rewardName || entry.code || '', entry.cashier, entry.points, stripped);
    else if (entry.kind === 'register') {
      if (entry.outcome === 'registered') {
        registrations.done += 1;
        cashierLine(entry.cashier, stripped).registrations += 1;
      } else registrations.failed += 1;
    } else if (entry.kind === 'correct') {
      corrections += 1;
      cashierLine(entry.cashier, stripped).corrections += 1;
    }
  }
  for (const item of input.open) {
    if (item.kind === 'redeem')
      redemption(OPEN_ITEM_STATE[item.state], item.rewardName || item.code, item.cashier, null);
    else if (item.state === 'pending') registrations.queued += 1;
    else registrations.failed += 1;
  }

  const total = (counts: StateCounts) => counts.done + counts.queued + counts.conflict + counts.failed;
  return {
    since: input.since,
    until: input.until,
    redemptions,
    pointsDeducted,
    byReward: [...rewards.values()].sort(
      (a, b) => total(b.counts) - total(a.counts) || a.reward.localeCompare(b.reward),
    ),
    byCashier: [...cashiers.values()].sort(
      (a, b) =>
        total(b.counts) - total(a.counts) ||
        b.registrations + b.corrections - (a.registrations + a.corrections) ||
        (a.cashier ?? '').localeCompare(b.cashier ?? ''),
    ),
    registrations,
    corrections,
    open: [...input.open],
    ...(removed.entries > 0 ? { detailsRemoved: removed } : {}),
  };
}
