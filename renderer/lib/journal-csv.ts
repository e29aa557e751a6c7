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
import { t, type MessageKey } from '../i18n';
import type { Attribution, JournalOutcome, OutboxState, StoredNote } from '../vocabulary/outbox';
import { entryNoteWords, noteWords } from './outbox-words';
import { conflictNote } from './reconciliation-words';

/**
 * The offline core's journal entries and outbox items (renderer/offline/db/schema.ts), taken
 * by the shape of what the CSV shows (lib/ imports nothing of the core); their codes are the
 * shared vocabulary's (vocabulary/outbox.ts).
 */

export interface JournalEntryFacts {
  doneAt: string;
  outcome: JournalOutcome;
  code: string | null;
  customerName: string;
  phoneE164: string;
  orderReference: string | null;
  branchId: string | null;
  note: StoredNote;
  serviceAt?: string | null;
  attemptAt?: string | null;
  heldBy?: { till: string; at: string } | null;
  cashier?: string | null;
  rewardName?: string | null;
  points?: number | null;
}

interface OpenItemBase {
  state: OutboxState;
  queuedAt: string;
  phoneE164: string;
  note: StoredNote;
  cashier?: string | null;
}
export type OpenItemFacts =
  | (OpenItemBase & {
      kind: 'redeem';
      code: string;
      customerName: string;
      orderReference: string | null;
      branchId: string | null;
      attribution?: Attribution | null;
      serviceReward: { status: string } | null;
      rewardName?: string | null;
      points?: number | null;
    })
  | (OpenItemBase & { kind: 'register'; name: string });

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
  restored: 'journalCsv.outcome.restored',
  not_kept: 'journalCsv.outcome.notKept',
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
export function journalRow(entry: JournalEntryFacts): string[] {
  const removed = (entry as { detailsRemoved?: { afterDays: number } }).detailsRemoved;
  if (removed) {
    // Its details removed after their days (docs/privacy.md): counts only, said in the customer's column.
    return [
      entry.doneAt,
      '',
      t('journalCsv.detailsRemoved', { days: String(removed.afterDays) }),
      '',
      '',
      outcomeCell(entry),
      '',
      '',
      t(STATE_WORDS.done),
      entry.rewardName ?? '',
      pointsCell(entry.points),
    ];
  }
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
export function openItemRow(item: OpenItemFacts): string[] {
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

export function journalToCsv(entries: readonly JournalEntryFacts[], open: readonly OpenItemFacts[] = []): string {
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
function openOutcomeCell(item: OpenItemFacts): string {
  const what = t(item.kind === 'redeem' ? 'journalCsv.outcome.openRedeem' : 'journalCsv.outcome.openRegister');
  const note =
    item.kind === 'redeem' && item.state === 'conflict' && item.attribution
      ? conflictNote(item.attribution, item.serviceReward?.status)
      : noteWords(item.note);
  return note ? t('journalCsv.outcomeWithNote', { outcome: what, note }) : what;
}

function outcomeCell(entry: JournalEntryFacts): string {
  const note = entryNoteWords(entry);
  const outcome = t(OUTCOME_WORDS[entry.outcome]);
  return note ? t('journalCsv.outcomeWithNote', { outcome, note }) : outcome;
}

/** The CSV of what the offline core hands for an export: the journal's entries, then what is still open. */
export function exportedJournalCsv(rows: {
  entries: readonly JournalEntryFacts[];
  open: readonly OpenItemFacts[];
}): string {
  return journalToCsv(rows.entries, rows.open);
}
