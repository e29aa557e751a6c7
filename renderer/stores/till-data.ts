import { defineStore } from 'pinia';
import { ref, watch } from 'vue';
import type { BridgeError, DataKeyLoss, TillForgotten, TillState } from '../../common/contract';
import { noApprover, type Approver } from '../lib/approval';
import { useOfflineStore } from './offline';
import { useSettingsStore } from './settings';
import { till } from './till';

/**
 * Why this till starts blank, said once to whoever is at it (docs/privacy.md#forgetting-a-till):
 * its data forgotten by the manager or by a switch to another service, its data key lost (with
 * the main process's reason where known), or its database sealed under another key. (The main
 * process's copy kept aside goes with a lost key, whose words say it.)
 */
export type DataNotice =
  | { reason: 'forgotten' | 'switched' | 'other_key'; at: string }
  | { reason: 'key_lost'; at: string; loss: DataKeyLoss | null };

/** What a step of "Forget this till's data" came to, for the screen to go on. */
export type ForgetStep =
  | { step: 'forgotten' }
  | { step: 'cancelled' }
  /** Items wait in the outbox: the manager is to confirm losing this many (of each kind, as the page knows them). */
  | { step: 'waiting'; waiting: number; redemptions: number; registrations: number }
  | { step: 'failed'; error: BridgeError };

/** Kept across the reload that starts the till blank: a reason and a time, nothing of a customer. */
const NOTICE_KEY = 'loyalty-till.data-notice';
/** The notices read ("Got it") this session, so a reload does not say them again. */
const SEEN_KEY = 'loyalty-till.data-notices-seen';

let reloadPage: () => void = () => window.location.reload();

/** How the page starts again once its database is deleted (store tests stand in for the reload). */
export function setPageReload(reload: () => void): void {
  reloadPage = reload;
}

function storage(): Storage | null {
  try {
    return globalThis.sessionStorage ?? null;
  } catch {
    return null;
  }
}

function readJson<T>(key: string, fallback: T): T {
  try {
    const text = storage()?.getItem(key);
    return text ? (JSON.parse(text) as T) : fallback;
  } catch {
    return fallback;
  }
}

const noticeId = (notice: DataNotice): string => `${notice.reason}@${notice.at}`;

/**
 * The till's data as a whole: forgetting it (the guarded action in Settings' "About this
 * till"), following the main process's word that it was forgotten (a switch of service, another
 * window's forgetting), and the notice that says why the till starts blank.
 */
export const useTillDataStore = defineStore('tillData', () => {
  const settings = useSettingsStore();
  const offline = useOfflineStore();
  const notice = ref<DataNotice | null>(readJson<DataNotice | null>(NOTICE_KEY, null));
  /** The database is being deleted: the page reloads next. */
  const blanking = ref(false);
  /** The `forgotten` of the till's state when this page first read it: a later one is news. */
  let knownForgotten: string | null | undefined;
  /** Forgotten while Settings was still saving (the key after the address): blanked once it is done. */
  let blankAfterSave: DataNotice | null = null;

  function show(next: DataNotice): void {
    if (readJson<string[]>(SEEN_KEY, []).includes(noticeId(next))) return;
    if (next.reason === 'key_lost' && next.loss === null && notice.value?.reason === 'key_lost') return;
    notice.value = next;
  }

  function dismiss(): void {
    const current = notice.value;
    if (current) storage()?.setItem(SEEN_KEY, JSON.stringify([...readJson<string[]>(SEEN_KEY, []), noticeId(current)]));
    storage()?.removeItem(NOTICE_KEY);
    notice.value = null;
  }

  /** Deletes this browser's database and starts the page again, blank, saying why. */
  async function startBlank(why: DataNotice): Promise<void> {
    blanking.value = true;
    try {
      await offline.deleteDatabase();
    } catch (error) {
      console.error("The till's database could not be deleted", error);
    }
    storage()?.setItem(NOTICE_KEY, JSON.stringify(why));
    reloadPage();
  }

  function forgottenNotice(forgotten: TillForgotten): DataNotice {
    return { reason: forgotten.why === 'manager' ? 'forgotten' : 'switched', at: forgotten.at };
  }

  /** The till's state as the main process last gave it: forgotten since this page read it, or a lost key. */
  function onState(state: TillState | null): void {
    if (!state) return;
    const forgotten = state.forgotten ?? null;
    if (knownForgotten === undefined) knownForgotten = forgotten?.at ?? null;
    else if (forgotten && forgotten.at !== knownForgotten) {
      knownForgotten = forgotten.at;
      blankAfterSave = forgottenNotice(forgotten);
    }
    if (blankAfterSave && !settings.saving) {
      const why = blankAfterSave;
      blankAfterSave = null;
      void startBlank(why);
      return;
    }
    const loss = state.dataKey.loss;
    if (loss) show({ reason: 'key_lost', at: loss.lostAt, loss: loss.reason });
  }

  /** Follows the till's state and the offline core for what makes the till start blank; returns the stop. */
  function follow(): () => void {
    const stops = [
      watch([() => settings.state, () => settings.saving], ([state]) => onState(state), { immediate: true }),
      watch(
        () => offline.keyProblem,
        (problem) => {
          if (problem)
            show(
              problem.reason === 'other_key'
                ? { reason: 'other_key', at: problem.at }
                : { reason: 'key_lost', at: problem.at, loss: problem.lost ?? null },
            );
        },
        { immediate: true },
      ),
    ];
    return () => stops.forEach((stop) => stop());
  }

  /**
   * "Forget this till's data", once the manager has said so: with the manager PIN (`approve`),
   * and never losing waiting items the manager has not confirmed losing. `confirmed`: how many
   * waiting items the manager has just confirmed are to be lost (0 at first). On success the
   * page deletes its database and reloads; nothing is answered then.
   */
  async function forget(approve: Approver = noApprover, confirmed = 0): Promise<ForgetStep> {
    const open = await offline.services().outboxItems();
    const ofKind = (kind: 'redeem' | 'register') => open.filter((item) => item.kind === kind).length;
    const waiting = (count: number): ForgetStep => ({
      step: 'waiting',
      waiting: count,
      redemptions: ofKind('redeem'),
      registrations: ofKind('register'),
    });
    if (open.length > confirmed) return waiting(open.length);
    if (confirmed > 0) {
      const armed = await till().confirmWaitingLoss({ waiting: confirmed });
      if (!armed.ok) return { step: 'failed', error: armed.error };
    }
    const answer = await approve('forgetTill', () => till().forgetTill());
    if (!answer.ok) {
      if (answer.error.code === 'work_waiting') return waiting(Math.max(answer.error.waiting ?? 0, open.length));
      if (answer.error.code === 'manager_pin_required') return { step: 'cancelled' };
      return { step: 'failed', error: answer.error };
    }
    const forgotten = answer.data.forgotten;
    knownForgotten = forgotten?.at ?? knownForgotten;
    settings.state = answer.data;
    await startBlank(forgotten ? forgottenNotice(forgotten) : { reason: 'forgotten', at: new Date().toISOString() });
    return { step: 'forgotten' };
  }

  /** The manager confirmed losing this many waiting items for a switch of service (Settings' save). */
  async function confirmLoss(count: number): Promise<boolean> {
    return (await till().confirmWaitingLoss({ waiting: count })).ok;
  }

  return { notice, blanking, follow, dismiss, forget, confirmLoss };
});
