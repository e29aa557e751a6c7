import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { Failure, Result } from '../../common/contract';
import { MANAGER_APPROVAL_MS } from '../../common/manager-approval';
import type { ApprovalReason } from '../lib/approval';
import { useSettingsStore } from './settings';
import { till } from './till';

export type { ApprovalReason };

/**
 * The manager PIN, as the page asks for it: a dialog over the screen, the PIN checked by the
 * main process, which answers only yes, no, or how long to wait. The PIN is held by the
 * dialog's field until it is sent, and never kept, stored or logged here. Without a PIN set
 * (or before the till is set up) nothing is asked. A right PIN is reused for the minutes the
 * main process approves it (common/manager-approval.ts): a second acknowledge a few seconds
 * later is not asked again. Should the main process refuse earlier (it restarted, or the
 * approval was ended), the page forgets it and asks.
 */
export const useManagerPinStore = defineStore('managerPin', () => {
  const settings = useSettingsStore();
  const asking = ref<ApprovalReason | null>(null);
  /** What exactly is approved ("Breakfast for Layla Haddad"), said in the dialog; null when the reason says it all. */
  const subject = ref<string | null>(null);
  /** Enter pressed during the wait: nothing was sent, and the dialog says so. */
  const tooSoon = ref(false);
  let approvedUntil = 0;
  const checking = ref(false);
  /** After a wrong PIN: the seconds to wait (0 once another try is heard). */
  const waitSeconds = ref(0);
  const wrong = ref(false);
  let settle: ((approved: boolean) => void) | null = null;

  /** Resolves true once a right PIN is given (or none is needed), false when the manager cancels. */
  function ask(reason: ApprovalReason, what: string | null = null): Promise<boolean> {
    if (!settings.state?.pinSet || !settings.isConfigured || Date.now() < approvedUntil) return Promise.resolve(true);
    return prompt(reason, what);
  }

  /** Opens the dialog whatever the page believes: the main process has just said a PIN is needed. */
  function prompt(reason: ApprovalReason, what: string | null = null): Promise<boolean> {
    settle?.(false);
    asking.value = reason;
    subject.value = what;
    wrong.value = false;
    tooSoon.value = false;
    return new Promise((resolve) => (settle = resolve));
  }

  /**
   * Asks the PIN even within the minutes a right one approves (what cannot be undone, such as
   * forgetting the till's data); true at once where no PIN is set.
   */
  function askAgain(reason: ApprovalReason, what: string | null = null): Promise<boolean> {
    if (!settings.state?.pinSet || !settings.isConfigured) return Promise.resolve(true);
    return prompt(reason, what);
  }

  function finish(approved: boolean): void {
    asking.value = null;
    subject.value = null;
    const done = settle;
    settle = null;
    done?.(approved);
  }

  /** Sends a PIN typed in the dialog; true when accepted (the dialog then closes). */
  async function submit(pin: string): Promise<boolean> {
    if (checking.value || !asking.value) return false;
    // During the back-off the main process would not hear it: not sent, and said so.
    tooSoon.value = waitSeconds.value > 0;
    if (tooSoon.value) return false;
    checking.value = true;
    try {
      const answer = await till().verifyManagerPin({ pin });
      if (answer.ok && answer.data.accepted) {
        waitSeconds.value = 0;
        approvedUntil = Date.now() + MANAGER_APPROVAL_MS;
        finish(true);
        return true;
      }
      wrong.value = true;
      waitSeconds.value = answer.ok ? answer.data.waitSeconds : 0;
      countDown();
      return false;
    } finally {
      checking.value = false;
    }
  }

  let timer: ReturnType<typeof setInterval> | null = null;
  function countDown(): void {
    if (timer) clearInterval(timer);
    if (waitSeconds.value <= 0) return;
    timer = setInterval(() => {
      waitSeconds.value = Math.max(0, waitSeconds.value - 1);
      if (waitSeconds.value === 0) tooSoon.value = false;
      if (waitSeconds.value === 0 && timer) {
        clearInterval(timer);
        timer = null;
      }
    }, 1000);
  }

  function cancel(): void {
    finish(false);
  }

  /**
   * Runs a call the main process guards; refused for want of approval, the PIN is asked for
   * the action the refusal names (`reason` when it names none) and the call made once more.
   * Anything else is the call's own answer.
   */
  async function withApproval<T>(reason: ApprovalReason, call: () => Promise<Result<T>>): Promise<Result<T>> {
    const first = await call();
    if (first.ok || !needsApproval(first)) return first;
    // The main process refused: whatever approval the page remembered has ended there.
    approvedUntil = 0;
    return (await prompt(first.error.action ?? reason)) ? call() : first;
  }

  /** Leaving Settings ends the approval the PIN gave, so it does not outlast the manager. */
  async function endApproval(): Promise<void> {
    approvedUntil = 0;
    if (settings.state?.pinSet) await till().endManagerApproval();
  }

  return {
    asking,
    subject,
    tooSoon,
    checking,
    waitSeconds,
    wrong,
    ask,
    askAgain,
    submit,
    cancel,
    withApproval,
    endApproval,
  };
});

function needsApproval(failure: Failure): boolean {
  return failure.error.kind === 'unauthorized' && failure.error.code === 'manager_pin_required';
}
