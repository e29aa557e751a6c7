import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import { cashierFromLink, cashierLabel } from '../lib/cashier';
import { useSettingsStore } from './settings';

/** Kept across a reload of the page (not secret: a name): the till does not forget who is at it. */
const STORAGE_KEY = 'loyalty-till.cashier';

/**
 * Who is at the till now: named by the last POS link that named one, or chosen on the till
 * from Settings' list. Every redemption, registration and correction records it (the outbox,
 * the journal, the CSV) and the POS callback carries it. No password at the counter: the
 * manager PIN guards what is risky, not who is serving.
 */
export const useCashierStore = defineStore('cashier', () => {
  const settings = useSettingsStore();
  const current = ref<string | null>(readStored());
  /** How the till learnt it: from a link, or chosen on the till. */
  const source = ref<'link' | 'chosen' | null>(current.value ? 'chosen' : null);

  const roster = computed(() => settings.settings?.cashiers ?? []);
  const choices = computed(() => roster.value.map(cashierLabel));

  function set(label: string | null, how: 'link' | 'chosen' | null): void {
    current.value = label;
    source.value = label ? how : null;
    try {
      if (label) globalThis.localStorage?.setItem(STORAGE_KEY, label);
      else globalThis.localStorage?.removeItem(STORAGE_KEY);
    } catch {
      // Storage refused (a private window): the cashier is still known until the page goes.
    }
  }

  /** A POS link named who is at the POS. */
  function fromLink(named: string): void {
    set(cashierFromLink(named, roster.value), 'link');
  }

  /** Chosen on the till from Settings' list. */
  function choose(label: string | null): void {
    set(label, 'chosen');
  }

  /** F6: the header's picker takes the keyboard (counted, so each press is seen). */
  const pickAsked = ref(0);
  function askToPick(): void {
    pickAsked.value += 1;
  }

  return { current, source, roster, choices, pickAsked, fromLink, choose, askToPick };
});

function readStored(): string | null {
  try {
    const stored = globalThis.localStorage?.getItem(STORAGE_KEY);
    return stored && stored.trim() ? stored : null;
  } catch {
    return null;
  }
}
