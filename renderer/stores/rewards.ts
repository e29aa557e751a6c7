import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { BridgeError, Customer, LinkOutcomeReport, Redemption, Reward } from '../../common/contract';
import { t, tPlural } from '../i18n';
import { formatPoints } from '../i18n/format';
import { isolatedList } from '../i18n/isolate';
import { formatDayTime } from '../lib/dates';
import { countryLabel } from '../lib/countries';
import { redeemRefusalWords } from '../lib/counter-words';
import { readPhone, toE164 } from '../../common/phone';
import { isRewardCode, normaliseRewardCode } from '../lib/scan-route';
import { isUnreachable, type OfflineCheck, type RedemptionItem } from '../offline';
import { useCashierStore } from './cashier';
import { useConnectionStore } from './connection';
import { useCustomersStore } from './customers';
import { useOfflineStore } from './offline';
import { useSettingsStore } from './settings';
import { till } from './till';

/** The reward check / redeem form. */
export interface RewardDraft {
  code: string;
  /** Typed only when no customer is on screen. */
  phone: string;
  orderReference: string;
}

/** What a check was made for: a redeem goes to exactly this code and phone. */
interface CheckedFor {
  code: string;
  phone: string;
}

/** Failures after which nobody can know whether the service redeemed: retrying is safe only because the service refuses a second redeem. */
const ANSWER_LOST = new Set(['offline', 'timeout', 'server', 'bad_response']);

export const useRewardsStore = defineStore('rewards', () => {
  const settings = useSettingsStore();
  const customers = useCustomersStore();
  const connection = useConnectionStore();
  const offline = useOfflineStore();
  const cashier = useCashierStore();

  const draft = ref<RewardDraft>({ code: '', phone: '', orderReference: '' });
  const fieldErrors = ref<Record<string, string>>({});

  const checking = ref(false);
  const checkError = ref<BridgeError | null>(null);
  const reward = ref<Reward | null>(null);
  const checkedFor = ref<CheckedFor | null>(null);
  /** Set when the cache answered the check because the service could not be reached. */
  const offlineCheck = ref<OfflineCheck | null>(null);
  /** A redemption of this reward is already waiting in this till's outbox. */
  const pendingHere = ref(false);

  const redeeming = ref(false);
  const redeemError = ref<BridgeError | null>(null);
  const redemption = ref<Redemption | null>(null);
  /** The redemption was stored in the outbox, to be sent when the till reconnects. */
  const queued = ref<RedemptionItem | null>(null);
  /** When the service's 2xx came, on this till's clock: shown where its answer did not say. */
  const redeemedAt = ref<string | null>(null);
  /**
   * The queued item is an online attempt whose answer was lost: the service may already have
   * made it, and the replayer settles it. Not a second redeem the cashier should try.
   */
  const answerLost = ref(false);
  /** Tills of the shop (`host:port`) that did not answer before the redemption was queued. */
  const unreachableTills = ref<string[]>([]);
  /**
   * Tills of the shop that could not be reached when the cashier pressed redeem, and may have
   * redeemed it: nothing is queued until the cashier answers (ask there, or redeem anyway).
   */
  const splitTills = ref<string[]>([]);
  /** Another till of the shop redeemed the checked reward offline: the screen says so on the reward. */
  const claimedElsewhere = ref<{ till: string; at: string } | null>(null);
  /** Plain words when the till would not redeem or queue it (offline redemption turned off, say). */
  const refusedNote = ref<string | null>(null);
  /** Plain words after a refused redeem, e.g. "This reward was already used on 22 Nov 2026, 10:41." */
  const unavailableNote = ref<string | null>(null);
  /** An earlier redeem of this check went unanswered: a later "already used" may be ours. */
  const earlierAttemptUnanswered = ref(false);

  /** Set when a POS link prepared this reward: its outcome is reported back once (see stores/links.ts). */
  const fromLink = ref<{ id: string; code: string } | null>(null);

  /** The customer who was on screen when the check started; null means "ask for the phone". */
  const forCustomer = ref<Customer | null>(null);
  const customerPhone = computed(() => forCustomer.value?.phone ?? null);

  /** The check still describes what is in the form: editing the code or phone afterwards needs a new check. */
  const checkIsCurrent = computed(
    () =>
      checkedFor.value !== null &&
      checkedFor.value.code === normaliseRewardCode(draft.value.code) &&
      checkedFor.value.phone === resolvePhone(),
  );

  /** Available by the service's word, or by the cache's while offline (then it can only be queued). */
  const checkSaysAvailable = computed(() =>
    offlineCheck.value ? offlineCheck.value.verdict === 'available' : reward.value?.status === 'available',
  );

  /** Offline, with offline redemption turned off in the settings: say so instead of offering it. */
  const offlineRedemptionForbidden = computed(
    () => offlineCheck.value?.verdict === 'available' && !settings.allowOfflineRedemption,
  );

  /** The service could not be reached during a redeem, and the settings forbid queueing it. */
  const cannotQueueNote = computed(() =>
    redeemError.value && isUnreachable(redeemError.value) && !settings.allowOfflineRedemption
      ? t('rewards.refusal.offlineRedemptionOff')
      : null,
  );

  const canRedeem = computed(
    () =>
      checkSaysAvailable.value &&
      !pendingHere.value &&
      !offlineRedemptionForbidden.value &&
      checkIsCurrent.value &&
      redemption.value === null &&
      queued.value === null &&
      refusedNote.value === null &&
      unavailableNote.value === null &&
      claimedElsewhere.value === null &&
      !redeeming.value,
  );

  function clearOutcome(): void {
    checkError.value = null;
    reward.value = null;
    checkedFor.value = null;
    offlineCheck.value = null;
    pendingHere.value = false;
    redeemError.value = null;
    redemption.value = null;
    queued.value = null;
    redeemedAt.value = null;
    answerLost.value = false;
    unreachableTills.value = [];
    splitTills.value = [];
    claimedElsewhere.value = null;
    refusedNote.value = null;
    unavailableNote.value = null;
    earlierAttemptUnanswered.value = false;
  }

  /**
   * Opens the reward screen afresh, optionally with a code (typed on another screen, or
   * scanned), for the customer on screen. Without one, the check asks for the phone: a
   * customer looked at earlier may not be the one at the till now.
   */
  function start(code = '', customer: Customer | null = null): void {
    forCustomer.value = customer;
    fromLink.value = null;
    draft.value = { code: code ? normaliseRewardCode(code) : '', phone: '', orderReference: '' };
    fieldErrors.value = {};
    clearOutcome();
  }

  function resolvePhone(): string | null {
    if (customerPhone.value) return toE164(customerPhone.value);
    const reading = readPhone(draft.value.phone, settings.defaultCountry);
    return reading ? reading.e164 : null;
  }

  async function check(): Promise<boolean> {
    if (checking.value) return false;
    const errors: Record<string, string> = {};
    const code = normaliseRewardCode(draft.value.code);
    if (!code) errors.reward_code = t('rewards.fields.codeMissing');
    else if (!isRewardCode(code)) errors.reward_code = t('rewards.fields.codeShape');
    const phone = resolvePhone();
    if (!phone) {
      errors.phone = draft.value.phone.trim()
        ? t('rewards.fields.phoneUnreadable', { country: countryLabel(settings.defaultCountry) })
        : t('rewards.fields.phoneMissing');
    }
    fieldErrors.value = errors;
    if (Object.keys(errors).length > 0 || !phone) return false;

    draft.value.code = code;
    clearOutcome();
    checking.value = true;
    try {
      const result = await offline.services().checkReward(code, phone);
      if (!result.ok) {
        connection.noteFailure(result.error);
        checkError.value = result.error;
        fieldErrors.value = { ...(result.error.fields ?? {}) };
        return false;
      }
      if (result.source === 'service') {
        connection.noteSuccess();
        reward.value = result.reward;
        pendingHere.value = result.pendingHere;
      } else {
        // The cache answered: what it knows, and that it is only the cache's word.
        offlineCheck.value = result.check;
        reward.value = result.check.reward;
        pendingHere.value = result.check.verdict === 'pending';
      }
      // Another till of the shop redeemed it and has not sent it yet: no redeem is offered.
      claimedElsewhere.value = result.claimedBy;
      checkedFor.value = { code, phone };
      return true;
    } finally {
      checking.value = false;
    }
  }

  /**
   * Redeems the checked reward. Called by the cashier's "Order paid — redeem", which is itself
   * the confirmation that the order has been settled (the service's rule: redeem only after
   * settlement). Sends at most one request per confirmation: a second call
   * while one is in flight, or after the reward was redeemed or refused, sends nothing —
   * whatever the buttons do. Returns true when the service redeemed it.
   */
  async function redeem(options: { anyway?: boolean } = {}): Promise<boolean> {
    const target = checkedFor.value;
    if (!canRedeem.value || !target) return false;
    // Guard set before the first await: a repeated Enter or double click lands here and stops.
    redeeming.value = true;
    redeemError.value = null;
    const splitAccepted = options.anyway === true && splitTills.value.length > 0;
    splitTills.value = [];
    try {
      const outcome = await offline.services().redeemReward({
        code: target.code,
        phone: target.phone,
        orderReference: draft.value.orderReference,
        ...(splitAccepted ? { splitAccepted } : {}),
      });
      switch (outcome.outcome) {
        case 'split':
          // Nothing queued: the cashier is asked first.
          splitTills.value = outcome.unreachableTills;
          return false;
        case 'redeemed': {
          connection.noteSuccess();
          const { card } = outcome.redemption;
          redemption.value = outcome.redemption;
          redeemedAt.value = new Date().toISOString();
          // The answer may not say what was redeemed: the checked reward, now redeemed, stands in.
          reward.value = outcome.redemption.reward ?? (reward.value ? { ...reward.value, status: 'redeemed' } : null);
          customers.applyRedemption(outcome.redemption, target.code);
          reportToLink(target, 'redeemed', {
            ...(card ? { points_balance: card.points } : {}),
            ...(card?.serial_number ? { card_serial_number: card.serial_number } : {}),
          });
          return true;
        }
        case 'queued':
          // Only now, with the outbox write committed, is the cashier told "queued".
          queued.value = outcome.item;
          answerLost.value = outcome.answerLost === true;
          unreachableTills.value = outcome.unreachableTills ?? [];
          if (outcome.check) offlineCheck.value = outcome.check;
          customers.markPending(outcome.item.code);
          reportToLink(target, 'queued', {});
          return true;
        case 'refused':
          if (outcome.reason === 'invalid_input' && outcome.fields) {
            fieldErrors.value = { ...fieldErrors.value, ...outcome.fields };
          } else {
            refusedNote.value = redeemRefusalWords(outcome);
            if (outcome.reason === 'already_queued') pendingHere.value = true;
            if (outcome.reason === 'claimed_elsewhere') claimedElsewhere.value = outcome.claimedBy;
            if ('check' in outcome && outcome.check) offlineCheck.value = outcome.check;
            reportToLink(target, 'refused', { message: refusedNote.value });
          }
          return false;
        case 'failed': {
          const { error } = outcome;
          connection.noteFailure(error);
          if (error.kind === 'reward_unavailable') {
            await explainUnavailable(target);
            reportToLink(target, 'refused', { message: unavailableNote.value ?? error.message });
          } else {
            redeemError.value = error;
            fieldErrors.value = { ...fieldErrors.value, ...(error.fields ?? {}) };
            if (ANSWER_LOST.has(error.kind)) earlierAttemptUnanswered.value = true;
          }
          return false;
        }
      }
    } finally {
      redeeming.value = false;
    }
  }

  /**
   * Tells the main process how a redemption a link prepared ended, once, so that it can
   * answer the POS. Only for the code the link named: a code the cashier typed instead is
   * not the link's. A report that fails is logged by the main process; the cashier is not held up.
   */
  function reportToLink(
    target: CheckedFor,
    outcome: LinkOutcomeReport['outcome'],
    extra: Partial<LinkOutcomeReport>,
  ): void {
    const link = fromLink.value;
    if (!link || link.code !== target.code) return;
    fromLink.value = null;
    const order = draft.value.orderReference.trim();
    void till()
      .reportLinkOutcome({
        link_id: link.id,
        outcome,
        reward_code: target.code,
        ...(order ? { order_reference: order } : {}),
        ...(cashier.current ? { cashier: cashier.current } : {}),
        ...extra,
      })
      .catch(() => undefined);
  }

  /** The warning under a queued redemption when some of the shop's tills did not answer. */
  const unreachableNote = computed(() =>
    unreachableTills.value.length > 0
      ? t('rewards.shop.unreachable', {
          tills: isolatedList(unreachableTills.value),
        })
      : null,
  );

  /** The question before queuing while a till of the shop is out of reach; null when none is asked. */
  const splitQuestion = computed(() =>
    splitTills.value.length > 0 ? t('rewards.shop.splitQuestion', { tills: isolatedList(splitTills.value) }) : null,
  );

  /** "Ask at Till 1": nothing is queued, and the redeem stays to press again once they answer. */
  function askAtTheOtherTill(): void {
    splitTills.value = [];
  }

  /** The service refused: ask it (without changing anything) what state the reward is in, to say why. */
  async function explainUnavailable(target: CheckedFor): Promise<void> {
    const result = await offline.services().checkReward(target.code, target.phone);
    const known = result.ok && result.source === 'service' ? result.reward : null;
    if (known) reward.value = known;
    unavailableNote.value = unavailableWords(known, earlierAttemptUnanswered.value);
  }

  function unavailableWords(known: Reward | null, maybeOurs: boolean): string {
    if (known?.redeemed_at) {
      const when = formatDayTime(known.redeemed_at);
      return maybeOurs
        ? t('rewards.unavailable.usedMaybeOurs', { date: when })
        : t('rewards.unavailable.used', { date: when });
    }
    if (known?.status === 'expired' && known.expires_at) {
      return t('rewards.unavailable.expired', { date: formatDayTime(known.expires_at) });
    }
    if (known?.type === 'points' && known.price !== undefined) {
      return tPlural('rewards.unavailable.tooFewPoints', known.price, { points: formatPoints(known.price) });
    }
    return t('rewards.unavailable.unknown');
  }

  /** In the interface language of the moment (a computed, so a language switch re-words it). */
  const offlineRedemptionOffWords = computed(() => t('rewards.refusal.offlineRedemptionOff'));

  return {
    draft,
    fieldErrors,
    checking,
    checkError,
    reward,
    checkedFor,
    redeeming,
    redeemError,
    redemption,
    redeemedAt,
    queued,
    answerLost,
    unreachableTills,
    unreachableNote,
    splitTills,
    splitQuestion,
    askAtTheOtherTill,
    claimedElsewhere,
    refusedNote,
    offlineCheck,
    pendingHere,
    offlineRedemptionForbidden,
    cannotQueueNote,
    offlineRedemptionOffWords,
    unavailableNote,
    earlierAttemptUnanswered,
    forCustomer,
    fromLink,
    customerPhone,
    canRedeem,
    start,
    check,
    redeem,
  };
});
