import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type {
  BridgeError,
  Card,
  Customer,
  PageMeta,
  Redemption,
  ShopClaimHolder,
  UpdateCustomerPayload,
} from '../../common/contract';
import { z } from 'zod';
import { t } from '../i18n';
import { isolate } from '../i18n/isolate';
import { countryLabel } from '../lib/countries';
import { wordedLookupError } from '../lib/counter-words';
import { readPhone, type PhoneReading } from '../../common/phone';
import type { CacheNote, ListedCustomer } from '../offline';
import { useConnectionStore } from './connection';
import { useOfflineStore } from './offline';
import { useSettingsStore } from './settings';

export const PAGE_SIZE = 20;
/** The same rule the service applies to an email address. */
const EMAIL = z.email();
/** How many customers of this shift the empty Find screen offers again. */
export const RECENT_LIMIT = 6;

/** A customer served in this shift: enough to show and reopen them. Kept in memory only. */
export interface RecentCustomer {
  id: string;
  name: string;
  phone: string;
}

/** The register / correct form. Strings throughout so that whatever was typed survives a failure. */
export interface CustomerDraft {
  name: string;
  phone: string;
  email: string;
  birthday: string;
}

export type CustomerNotice = { kind: 'created' | 'existing' | 'saved' | 'queued'; text: string };

/** Where the customer on screen came from, when not straight from the service. */
export interface CustomerOrigin {
  source: 'service' | 'cache';
  /** When the service last returned this record: "from the cache of <time>". */
  cachedAt: string | null;
  /** Reward codes with a redemption queued on this till. */
  pendingCodes: string[];
  /** Registered while offline; the service does not know this customer yet. */
  localOnly: boolean;
  /** By reward code (upper case): another till of the shop redeemed it offline, not yet sent. */
  claimedElsewhere?: Record<string, ShopClaimHolder>;
}

function emptyDraft(phone = ''): CustomerDraft {
  return { name: '', phone, email: '', birthday: '' };
}

/**
 * What a correction sends: only the fields the cashier changed, so a correction never
 * overwrites what another till changed meanwhile. An emptied email or birthday is sent as
 * null, which removes it. The phone is the customer's identity and is never sent.
 */
export function correctionOf(customer: Customer, form: CustomerDraft): Omit<UpdateCustomerPayload, 'id'> {
  const changes: Omit<UpdateCustomerPayload, 'id'> = {};
  const name = form.name.trim();
  if (name !== customer.name) changes.name = name;
  const email = form.email.trim() || null;
  if (email !== (customer.email || null)) changes.email = email;
  const birthday = form.birthday || null;
  if (birthday !== (customer.birthday || null)) changes.birthday = birthday;
  return changes;
}

export const useCustomersStore = defineStore('customers', () => {
  const settings = useSettingsStore();
  const connection = useConnectionStore();
  const offline = useOfflineStore();

  // ---- search -------------------------------------------------------------------------
  const query = ref('');
  /** What the results list shows of each customer found (the cache keeps no more for a search). */
  const results = ref<ListedCustomer[]>([]);
  const meta = ref<PageMeta | null>(null);
  const searching = ref(false);
  const searchError = ref<BridgeError | null>(null);
  /** Set when the cache answered the search because the service could not be reached. */
  const resultsFromCache = ref<CacheNote | null>(null);
  /** The query and reading the results belong to (the box may have changed since). */
  const searchedFor = ref<{ query: string; phone: PhoneReading | null } | null>(null);
  const activeIndex = ref(-1);
  let searchTicket = 0;

  /** How the box reads right now, shown as the cashier types. */
  const reading = computed(() => readPhone(query.value, settings.defaultCountry));
  const hasSearched = computed(() => searchedFor.value !== null);
  const page = computed(() => meta.value?.current_page ?? 1);
  const lastPage = computed(() => meta.value?.last_page ?? 1);
  const resultsAreCurrent = computed(() => searchedFor.value?.query === query.value.trim());

  function failed(error: BridgeError): void {
    connection.noteFailure(error);
  }

  async function search(targetPage = 1): Promise<void> {
    const text = query.value.trim();
    if (!text) {
      results.value = [];
      meta.value = null;
      searchedFor.value = null;
      searchError.value = null;
      return;
    }
    const phone = reading.value;
    // A newer search wins: answers to older ones are dropped when they arrive late.
    const ticket = ++searchTicket;
    searching.value = true;
    searchError.value = null;
    customerError.value = null;
    try {
      const result = await offline.services().searchCustomers(text, targetPage);
      if (ticket !== searchTicket) return;
      if (result.ok) {
        if (result.source === 'service') connection.noteSuccess();
        results.value = result.customers;
        meta.value = result.meta;
        resultsFromCache.value = result.source === 'cache' ? result.cache : null;
        searchedFor.value = { query: text, phone };
        activeIndex.value = result.customers.length > 0 ? 0 : -1;
      } else {
        failed(result.error);
        searchError.value = result.error;
      }
    } finally {
      if (ticket === searchTicket) searching.value = false;
    }
  }

  async function goToPage(target: number): Promise<void> {
    if (!searchedFor.value || searching.value) return;
    if (target < 1 || target > lastPage.value) return;
    query.value = searchedFor.value.query;
    await search(target);
  }

  function moveSelection(step: number): void {
    if (results.value.length === 0) return;
    const next = activeIndex.value + step;
    activeIndex.value = Math.min(results.value.length - 1, Math.max(0, next));
  }

  function clearSearch(): void {
    query.value = '';
    results.value = [];
    meta.value = null;
    searchedFor.value = null;
    searchError.value = null;
    resultsFromCache.value = null;
    activeIndex.value = -1;
  }

  // ---- one customer -------------------------------------------------------------------
  const current = ref<Customer | null>(null);
  const loadingCustomer = ref(false);
  const customerError = ref<BridgeError | null>(null);
  const notice = ref<CustomerNotice | null>(null);
  const origin = ref<CustomerOrigin | null>(null);
  /** Newest first; never written to disk, so it is gone when the app closes. */
  const recent = ref<RecentCustomer[]>([]);

  function remember(customer: Customer): void {
    const entry = { id: customer.id, name: customer.name, phone: customer.phone };
    recent.value = [entry, ...recent.value.filter((other) => other.id !== customer.id)].slice(0, RECENT_LIMIT);
  }

  async function open(id: string): Promise<boolean> {
    loadingCustomer.value = true;
    customerError.value = null;
    try {
      const result = await offline.services().getCustomer(id);
      if (!result.ok) {
        failed(result.error);
        customerError.value = wordedLookupError(result.error);
        return false;
      }
      if (result.source === 'service') connection.noteSuccess();
      // "Registered" or "saved" belongs to the customer it was said about, not the next one opened.
      if (current.value?.id !== result.customer.id) notice.value = null;
      current.value = result.customer;
      remember(result.customer);
      origin.value = {
        source: result.source,
        cachedAt: result.cachedAt,
        pendingCodes: result.pendingCodes,
        localOnly: result.localOnly,
        claimedElsewhere: result.claimedElsewhere,
      };
      return true;
    } finally {
      loadingCustomer.value = false;
    }
  }

  async function reloadCurrent(): Promise<boolean> {
    return current.value ? open(current.value.id) : false;
  }

  /**
   * A phone number was scanned or typed: find its customer. Returns 'opened' when exactly
   * one customer has it, 'none' when nobody does (the search box then offers to register),
   * 'error' when the service could not answer.
   */
  async function openByPhone(phone: PhoneReading): Promise<'opened' | 'none' | 'several' | 'error'> {
    query.value = phone.international;
    await search(1);
    if (searchError.value) return 'error';
    if (results.value.length === 0) return 'none';
    if (results.value.length > 1) return 'several';
    const [only] = results.value;
    return only && (await open(only.id)) ? 'opened' : 'error';
  }

  /**
   * A loyalty card was scanned: open its holder (the service's search kept to that exact
   * serial, or the cache). 'several' when two customers hold it (the service's data is wrong).
   */
  async function openByCard(serial: string): Promise<'opened' | 'none' | 'several' | 'error'> {
    customerError.value = null;
    const found = await offline.services().findCardHolder(serial);
    if (!found.ok) {
      failed(found.error);
      customerError.value = found.error;
      return 'error';
    }
    if ('several' in found) return 'several';
    if (found.customerId === null) return 'none';
    return (await open(found.customerId)) ? 'opened' : 'error';
  }

  /**
   * After a redemption the service returns the card as it now is: show that, and drop the used
   * reward. Where its answer could not be read in full, the reward goes and the card stays as known.
   */
  function applyRedemption(redemption: Redemption, code: string): void {
    const customer = current.value;
    const customerId = redemption.reward?.customer_id ?? customer?.rewards?.find((r) => r.code === code)?.customer_id;
    if (!customer || customer.id !== customerId) return;
    const card = redemption.card;
    const cards = card ? customer.cards.map((held: Card) => (held.id === card.id ? card : held)) : customer.cards;
    const rewards = customer.rewards?.filter((reward) => reward.code !== code);
    current.value = { ...customer, cards, ...(rewards ? { rewards } : {}) };
  }

  /** A redemption was queued on this till: the reward stays on screen, marked pending. */
  function markPending(code: string): void {
    if (!origin.value || origin.value.pendingCodes.includes(code)) return;
    origin.value = { ...origin.value, pendingCodes: [...origin.value.pendingCodes, code] };
  }

  // ---- register and correct -----------------------------------------------------------
  const draft = ref<CustomerDraft>(emptyDraft());
  const fieldErrors = ref<Record<string, string>>({});
  const saving = ref(false);
  const saveError = ref<BridgeError | null>(null);

  function resetForm(next: CustomerDraft): void {
    draft.value = next;
    fieldErrors.value = {};
    saveError.value = null;
  }

  /** Registering from a search that found nobody carries the number over. */
  function startRegister(phone = ''): void {
    resetForm(emptyDraft(phone));
  }

  function startCorrect(): void {
    const customer = current.value;
    if (!customer) return;
    resetForm({
      name: customer.name,
      phone: customer.phone,
      email: customer.email ?? '',
      birthday: customer.birthday ?? '',
    });
  }

  /**
   * Every check that needs no round trip, all at once, so the cashier fixes the form in one
   * go; the service has the last word, and its own field messages replace these.
   */
  function localErrors(form: CustomerDraft, needsPhone: boolean): Record<string, string> {
    const errors: Record<string, string> = {};
    if (!form.name.trim()) errors.name = t('customers.fields.nameMissing');
    if (needsPhone) {
      if (!form.phone.trim()) errors.phone = t('customers.fields.phoneMissing');
      else if (!readPhone(form.phone, settings.defaultCountry))
        errors.phone = t('customers.fields.phoneUnreadable', { country: countryLabel(settings.defaultCountry) });
    }
    const email = form.email.trim();
    if (email && !EMAIL.safeParse(email).success) errors.email = t('customers.fields.emailFormat');
    if (form.birthday) {
      if (!/^\d{4}-\d{2}-\d{2}$/.test(form.birthday) || Number.isNaN(Date.parse(form.birthday)))
        errors.birthday = t('customers.fields.birthdayFormat');
      else if (form.birthday > new Date().toISOString().slice(0, 10))
        errors.birthday = t('customers.fields.birthdayFuture');
    }
    return errors;
  }

  function rejected(error: BridgeError): false {
    failed(error);
    saveError.value = error;
    fieldErrors.value = { ...(error.fields ?? {}) };
    return false;
  }

  async function register(): Promise<boolean> {
    if (saving.value) return false;
    const form = draft.value;
    const errors = localErrors(form, true);
    fieldErrors.value = errors;
    saveError.value = null;
    if (Object.keys(errors).length > 0) return false;
    const phone = readPhone(form.phone, settings.defaultCountry);
    if (!phone) return false;
    saving.value = true;
    try {
      const outcome = await offline.services().registerCustomer({
        name: form.name.trim(),
        phone: phone.e164,
        ...(form.email.trim() ? { email: form.email.trim() } : {}),
        ...(form.birthday ? { birthday: form.birthday } : {}),
      });
      if (outcome.outcome === 'failed') return rejected(outcome.error);
      if (outcome.outcome === 'refused') {
        return rejected({ kind: 'validation', message: outcome.message, fields: outcome.fields });
      }
      const { customer } = outcome;
      if (outcome.outcome === 'registered') {
        connection.noteSuccess();
        notice.value = outcome.created
          ? { kind: 'created', text: t('customers.notice.created', { name: isolate(customer.name) }) }
          : { kind: 'existing', text: t('customers.notice.existing', { name: isolate(customer.name) }) };
      } else if (outcome.outcome === 'queued') {
        notice.value = { kind: 'queued', text: t('customers.notice.queued', { name: isolate(customer.name) }) };
      } else {
        notice.value = { kind: 'existing', text: t('customers.notice.knownHere', { name: isolate(customer.name) }) };
      }
      // The register answer has no rewards: load the full customer for the customer screen.
      current.value = customer;
      await open(customer.id);
      return true;
    } finally {
      saving.value = false;
    }
  }

  async function saveCorrection(): Promise<boolean> {
    const customer = current.value;
    if (saving.value || !customer) return false;
    const form = draft.value;
    const errors = localErrors(form, false);
    fieldErrors.value = errors;
    saveError.value = null;
    if (Object.keys(errors).length > 0) return false;
    const changes = correctionOf(customer, form);
    if (Object.keys(changes).length === 0) {
      notice.value = { kind: 'saved', text: t('customers.notice.unchanged') };
      return true;
    }
    saving.value = true;
    try {
      const result = await offline.services().updateCustomer({ id: customer.id, ...changes });
      if (!result.ok) return rejected(result.error);
      connection.noteSuccess();
      current.value = { ...result.data, ...(customer.rewards ? { rewards: customer.rewards } : {}) };
      notice.value = { kind: 'saved', text: t('customers.notice.saved') };
      return true;
    } finally {
      saving.value = false;
    }
  }

  function dismissNotice(): void {
    notice.value = null;
  }

  return {
    query,
    reading,
    results,
    meta,
    searching,
    searchError,
    searchedFor,
    hasSearched,
    resultsAreCurrent,
    resultsFromCache,
    page,
    lastPage,
    activeIndex,
    search,
    goToPage,
    moveSelection,
    clearSearch,
    current,
    recent,
    loadingCustomer,
    customerError,
    notice,
    origin,
    open,
    reloadCurrent,
    openByPhone,
    openByCard,
    applyRedemption,
    markPending,
    draft,
    fieldErrors,
    saving,
    saveError,
    startRegister,
    startCorrect,
    register,
    saveCorrection,
    dismissNotice,
  };
});
