import { ref } from 'vue';
import type { BridgeError, Customer, UpdateCustomerPayload } from '../../../common/contract';
import { readPhone } from '../../../common/phone';
import { t } from '../../i18n';
import { isolate } from '../../i18n/isolate';
import { useConnectionStore } from '../connection';
import { useOfflineStore } from '../offline';
import { useSettingsStore } from '../settings';
import type { useCurrentCustomer } from './current';
import { formErrors, type CustomerDraft } from './form-checks';
import { queueRefusalWords } from '../../lib/outbox-words';

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

/** What the form needs of the one customer: who is on screen, what was said, and opening. */
type OnScreen = Pick<ReturnType<typeof useCurrentCustomer>, 'current' | 'notice' | 'open'>;

/**
 * The customers store's register and correct form: the draft, its errors, and the saves,
 * which leave the customer saved on screen with a notice of what happened.
 */
export function useCustomerForm({ current, notice, open }: OnScreen) {
  const settings = useSettingsStore();
  const connection = useConnectionStore();
  const offline = useOfflineStore();

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

  /** The form as typed passes the local checks (their messages are shown beside the fields). */
  function formPasses(needsPhone: boolean): boolean {
    const errors = formErrors(draft.value, needsPhone, settings.defaultCountry);
    fieldErrors.value = errors;
    saveError.value = null;
    return Object.keys(errors).length === 0;
  }

  function rejected(error: BridgeError): false {
    connection.noteFailure(error);
    saveError.value = error;
    fieldErrors.value = { ...(error.fields ?? {}) };
    return false;
  }

  async function register(): Promise<boolean> {
    if (saving.value || !formPasses(true)) return false;
    const form = draft.value;
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
        return rejected({ kind: 'validation', ...queueRefusalWords(outcome) });
      }
      const { customer } = outcome;
      const name = isolate(customer.name);
      if (outcome.outcome === 'registered') {
        connection.noteSuccess();
        notice.value = outcome.created
          ? { kind: 'created', text: t('customers.notice.created', { name }) }
          : { kind: 'existing', text: t('customers.notice.existing', { name }) };
      } else if (outcome.outcome === 'queued') {
        notice.value = { kind: 'queued', text: t('customers.notice.queued', { name }) };
      } else {
        notice.value = { kind: 'existing', text: t('customers.notice.knownHere', { name }) };
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
    if (saving.value || !customer || !formPasses(false)) return false;
    const changes = correctionOf(customer, draft.value);
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
}
