/**
 * Who is at the till, as the journal records it. A cashier is a name and, optionally, their
 * number on the POS; the journal, the CSV, the report and the POS callback carry one label
 * for them, so that a link naming a cashier by number and a person choosing the same cashier
 * on the till are counted as one.
 */
import type { CashierEntry } from '../../common/contract';

/** The label recorded for a cashier of Settings' list: "Sara (12)", or the name alone. */
export function cashierLabel(entry: CashierEntry): string {
  return entry.number ? `${entry.name} (${entry.number})` : entry.name;
}

/**
 * The label for a cashier a POS link names: the listed cashier whose number or name it is
 * (numbers first: a POS usually knows its cashiers by number), or the link's words as given.
 */
export function cashierFromLink(named: string, roster: readonly CashierEntry[]): string {
  const text = named.trim();
  const byNumber = roster.find((entry) => entry.number !== null && entry.number.toLowerCase() === text.toLowerCase());
  if (byNumber) return cashierLabel(byNumber);
  const byName = roster.find((entry) => entry.name.toLocaleLowerCase() === text.toLocaleLowerCase());
  return byName ? cashierLabel(byName) : text;
}
