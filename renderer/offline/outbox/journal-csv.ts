/**
 * The journal as CSV, for the back office: one row per entry of the journal (what left the
 * outbox, and what the service answered at once), then one row per item still in the outbox
 * (waiting, in conflict, failed) with its state, so that a day-end export misses nothing that
 * is still open. Every row names the cashier.
 *
 * Cells are quoted per RFC 4180, and a cell that a spreadsheet would run as a formula
 * (starting with = + - @, a tab or a carriage return) is prefixed with an apostrophe: names
 * and order references come from people and must never execute when the file is opened.
 */
import type { JournalEntry, JournalOutcome, OutboxItem, OutboxState } from '../db/schema';
import { t, type MessageKey } from '../../i18n';
import { formatDateTime } from '../../i18n/format';
import { isolate } from '../../i18n/isolate';
import { conflictNote, likelyOursWords } from './reconciliation-words';

/** The header row, in the interface language of the moment the file is made. */
export function journalCsvHeader(): string[] {
  return [
    t('journalCsv.header.time'),
    t('journalCsv.header.code'),
    t('journalCsv.header.customer'),
    t('journalCsv.header.orderReference'),
    t('journalCsv.header.branch'),
    t('journalCsv.header.outcome'),
    t('journalCsv.header.serviceTime'),
    t('journalCsv.header.cashier'),
    t('journalCsv.header.state'),
    t('journalCsv.header.reward'),
    t('journalCsv.header.points'),
  ];
}

const OUTCOME_WORDS: Record<JournalOutcome, MessageKey> = {
  redeemed: 'journalCsv.outcome.redeemed',
  redeemed_answer_lost: 'journalCsv.outcome.redeemedAnswerLost',
  registered: 'journalCsv.outcome.registered',
  conflict_acknowledged: 'journalCsv.outcome.conflictAcknowledged',
  failure_acknowledged: 'journalCsv.outcome.failureAcknowledged',
  corrected: 'journalCsv.outcome.corrected',
  refused_elsewhere: 'journalCsv.outcome.refusedElsewhere',
};

/** The state column: done for the journal, and the outbox's own state for what is still open. */
const STATE_WORDS: Record<OutboxState | 'done', MessageKey> = {
  done: 'journalCsv.state.done',
  pending: 'journalCsv.state.pending',
  conflict: 'journalCsv.state.conflict',
  failed: 'journalCsv.state.failed',
};

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]|^\s|\s$/;

export function csvCell(value: string | null | undefined): string {
  let text = value ?? '';
  if (FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One entry's cells, in the header's order, before quoting. */
export function journalRow(entry: JournalEntry): string[] {
  return [
    entry.doneAt,
    entry.code ?? '',
    entry.customerName || entry.phoneE164,
    entry.orderReference ?? '',
    entry.branchId ?? '',
    outcomeCell(entry),
    entry.serviceAt ?? '',
    entry.cashier ?? '',
    t(STATE_WORDS.done),
    entry.rewardName ?? '',
    pointsCell(entry.points),
  ];
}

/** An item still in the outbox, in the journal's columns: its state instead of an outcome. */
export function openItemRow(item: OutboxItem): string[] {
  const redeem = item.kind === 'redeem';
  return [
    item.queuedAt,
    redeem ? item.code : '',
    (redeem ? item.customerName : item.name) || item.phoneE164,
    redeem ? (item.orderReference ?? '') : '',
    redeem ? (item.branchId ?? '') : '',
    openOutcomeCell(item),
    '',
    item.cashier ?? '',
    t(STATE_WORDS[item.state]),
    redeem ? (item.rewardName ?? '') : '',
    redeem ? pointsCell(item.points) : '',
  ];
}

export function journalToCsv(entries: readonly JournalEntry[], open: readonly OutboxItem[] = []): string {
  return csvText([journalCsvHeader(), ...entries.map(journalRow), ...open.map(openItemRow)]);
}

/** Rows as CSV text: every cell quoted as needed, CRLF line ends (what spreadsheet programs expect). */
export function csvText(rows: ReadonlyArray<readonly string[]>): string {
  return rows.map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

function pointsCell(points: number | null | undefined): string {
  return typeof points === 'number' ? String(points) : '';
}

/** What is known of an open item: a conflict's words, a failure's note, or what a waiting item is. */
function openOutcomeCell(item: OutboxItem): string {
  const what = t(item.kind === 'redeem' ? 'journalCsv.outcome.openRedeem' : 'journalCsv.outcome.openRegister');
  const note =
    item.kind === 'redeem' && item.state === 'conflict' && item.attribution
      ? conflictNote(item.attribution, item.serviceReward?.status)
      : item.note;
  return note ? t('journalCsv.outcomeWithNote', { outcome: what, note }) : what;
}

function outcomeCell(entry: JournalEntry): string {
  // Entries journalled before the attribution rule said "confirmed": the evidence was a time.
  const note =
    entry.outcome === 'redeemed_answer_lost' && (entry.attemptAt || !entry.note || entry.note.startsWith('Confirmed'))
      ? likelyOursWords(entry.attemptAt)
      : entry.outcome === 'refused_elsewhere' && entry.heldBy
        ? heldElsewhereWords(entry.heldBy)
        : entry.note;
  const outcome = t(OUTCOME_WORDS[entry.outcome]);
  return note ? t('journalCsv.outcomeWithNote', { outcome, note }) : outcome;
}

/**
 * A refused attempt's note, worded from the till that held the reward: older rows kept these
 * words as their note, newer ones the refusal's reason (the counter writes no words).
 */
function heldElsewhereWords({ till, at }: { till: string; at: string }): string {
  const date = new Date(at);
  const time = Number.isNaN(date.getTime()) ? at : formatDateTime(date);
  return t('rewards.refusal.claimedElsewhere', { till: isolate(till), time });
}
