/**
 * Which incoming connections a till's ledger port takes (docs/shop-ledger.md, "What one
 * hostile host can do"). A host on the LAN without the shop's secret cannot say anything a
 * till believes, but it could hold the port's connections open and so silence the shop. So:
 * - one address holds at most `perAddress` connections at once (a till needs one or two);
 * - strangers together hold at most `total - reserved`: the last `reserved` places are kept for
 *   the addresses of tills heard from this shift (a valid sealed frame came from there, or a
 *   till there answered), which a stranger cannot take;
 * - every connection is short-lived anyway (the transport's sealed-frame deadline).
 * The addresses known are few and forgotten after `knownForMs`; the map of open counts holds
 * only addresses with a connection open now, so neither grows with a flood.
 */

export interface AdmissionLimits {
  /** Connections open at once, all addresses together. */
  total: number;
  /** Of `total`, the places only tills heard from this shift may use. */
  reserved: number;
  /** Connections one address may hold at once. */
  perAddress: number;
  /** How long an address stays known after its till was last heard from (a shift). */
  knownForMs: number;
}

/** Tills a shop has, and more: the oldest known address is forgotten past this. */
const MAX_KNOWN = 64;

/** Why a connection was not taken. */
export type AdmissionRefusal = 'too-many-connections' | 'address-busy';

export interface Admission {
  /** Takes a connection from `address`, or says why not; a taken one must be `release`d once. */
  admit(address: string, now: number): { ok: true } | { ok: false; reason: AdmissionRefusal };
  release(address: string): void;
  /** A till of the shop was heard from at `address` (it sealed a valid frame): it keeps a place. */
  know(address: string, now: number): void;
  isKnown(address: string, now: number): boolean;
}

/** `::ffff:10.0.0.2`, as a dual-stack socket names an IPv4 peer, is `10.0.0.2`. */
export function plainAddress(address: string): string {
  return address.startsWith('::ffff:') && address.includes('.') ? address.slice('::ffff:'.length) : address;
}

export function createAdmission(limits: AdmissionLimits): Admission {
  const open = new Map<string, number>();
  const known = new Map<string, number>();
  let strangers = 0;
  let all = 0;
  /** Whether each open connection took a stranger's place, by address: released the same way. */
  const strangerOpen = new Map<string, number>();

  function isKnown(address: string, now: number): boolean {
    const at = known.get(plainAddress(address));
    return at !== undefined && now - at <= limits.knownForMs;
  }

  return {
    admit(raw, now) {
      const address = plainAddress(raw);
      const mine = open.get(address) ?? 0;
      if (mine >= limits.perAddress) return { ok: false, reason: 'address-busy' };
      if (all >= limits.total) return { ok: false, reason: 'too-many-connections' };
      const stranger = !isKnown(address, now);
      if (stranger && strangers >= limits.total - limits.reserved) return { ok: false, reason: 'too-many-connections' };
      open.set(address, mine + 1);
      all += 1;
      if (stranger) {
        strangers += 1;
        strangerOpen.set(address, (strangerOpen.get(address) ?? 0) + 1);
      }
      return { ok: true };
    },

    release(raw) {
      const address = plainAddress(raw);
      const mine = open.get(address) ?? 0;
      if (mine === 0) return;
      if (mine === 1) open.delete(address);
      else open.set(address, mine - 1);
      all -= 1;
      const asStranger = strangerOpen.get(address) ?? 0;
      if (asStranger > 0) {
        strangers -= 1;
        if (asStranger === 1) strangerOpen.delete(address);
        else strangerOpen.set(address, asStranger - 1);
      }
    },

    know(raw, now) {
      const address = plainAddress(raw);
      known.delete(address);
      known.set(address, now);
      // Insertion order is age order: the first is the one heard from longest ago.
      while (known.size > MAX_KNOWN) known.delete(known.keys().next().value!);
    },

    isKnown,
  };
}
