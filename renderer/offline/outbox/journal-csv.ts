/**
 * The journal as CSV, for the back office: one row per item that left the outbox.
 *
 * Cells are quoted per RFC 4180, and a cell that a spreadsheet would run as a formula
 * (starting with = + - @, a tab or a carriage return) is prefixed with an apostrophe: names
 * and order references come from people and must never execute when the file is opened.
 */
import type { JournalEntry, JournalOutcome } from '../db/schema';
import { t, type MessageKey } from '../../i18n';
import { likelyOursWords } from './reconciliation-words';

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
  ];
}

const OUTCOME_WORDS: Record<JournalOutcome, MessageKey> = {
  redeemed: 'journalCsv.outcome.redeemed',
  redeemed_answer_lost: 'journalCsv.outcome.redeemedAnswerLost',
  registered: 'journalCsv.outcome.registered',
  conflict_acknowledged: 'journalCsv.outcome.conflictAcknowledged',
  failure_acknowledged: 'journalCsv.outcome.failureAcknowledged',
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
  ];
}

export function journalToCsv(entries: readonly JournalEntry[]): string {
  return (
    [journalCsvHeader(), ...entries.map(journalRow)].map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n'
  );
}

function outcomeCell(entry: JournalEntry): string {
  // Entries journalled before the attribution rule said "confirmed": the evidence was a time.
  const note =
    entry.outcome === 'redeemed_answer_lost' && (entry.attemptAt || !entry.note || entry.note.startsWith('Confirmed'))
      ? likelyOursWords(entry.attemptAt)
      : entry.note;
  const outcome = t(OUTCOME_WORDS[entry.outcome]);
  return note ? t('journalCsv.outcomeWithNote', { outcome, note }) : outcome;
}
