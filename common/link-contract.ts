/**
 * Links from the POS, `loyalty-till://…` (see electron/links/till-link.ts and
 * docs/pos-integration.md): what a link asks, what the main process pushes to the page, and the
 * outcome the page reports back for the POS. Part of the bridge contract (contract.ts re-exports
 * them).
 */

/**
 * What a link asks the till to open, validated by the main process. A link only fills in and
 * navigates: nothing here redeems, registers or changes anything by itself.
 */
export type LinkRequest = (
  | { route: 'customer'; phone: string; country?: string }
  | { route: 'reward'; code: string; phone?: string; country?: string; order?: string }
  | { route: 'register'; name?: string; phone?: string; country?: string }
  | { route: 'find'; q: string }
) & {
  /** Who is at the POS (their name or number), recorded with the work the link leads to. */
  cashier?: string;
};

export type LinkRoute = LinkRequest['route'];

/** Pushed from the main process to the page, or handed over when the page starts. */
export type LinkMessage =
  | { kind: 'request'; id: string; request: LinkRequest; receivedAt: string }
  | { kind: 'refused'; reason: string; receivedAt: string };

export type LinkOutcome = 'redeemed' | 'queued' | 'refused';

/** The page's word on how a redemption that a link prepared ended; the main process tells the POS. */
export interface LinkOutcomeNotice {
  /** The `id` of the link's request message. */
  link_id: string;
  outcome: LinkOutcome;
  reward_code: string;
  order_reference?: string;
  /** The card's points after the redemption, when the service answered with the card. */
  points_balance?: number;
  card_serial_number?: string;
  /** Plain words, for a refusal. */
  message?: string;
  /** Who was at the till when it ended (the link's cashier, or the one chosen on the till). */
  cashier?: string;
}

export interface LinkOutcomeReceipt {
  /** `not_set`: no callback URL in Settings, nothing is sent. */
  callback: 'sending' | 'not_set';
}
