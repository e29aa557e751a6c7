/**
 * What a failed call means for the offline core, decided in one place: whether the cache
 * answers instead, whether to try again later, and whether the service may have acted.
 */
import type { BridgeError } from '../../../common/contract';

/** The service could not be reached (or did not answer in time): the cache or the outbox answers. */
export function isUnreachable(error: BridgeError): boolean {
  return error.kind === 'offline' || error.kind === 'timeout';
}

const TRANSIENT = new Set<BridgeError['kind']>(['offline', 'timeout', 'rate_limited', 'server', 'bad_response']);

/** Nothing was refused for good: worth another try after a back-off. */
export function isTransient(error: BridgeError): boolean {
  return TRANSIENT.has(error.kind);
}

// Transport failures that happen before a request leaves the till: the service cannot have
// acted on it (nothing listened, the name did not resolve, the network was down, the TLS
// handshake was refused).
const NEVER_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ENETDOWN']);
const TLS_REFUSAL = /^(CERT_|ERR_TLS|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO_)/;

/**
 * Whether a failed redeem may nevertheless have been applied by the service (its answer
 * lost). Reconciliation counts such an attempt as ours: a reward found redeemed at or after
 * it is taken to be this till's redemption. So only attempts that may really have reached
 * the service count; counting one that never left would turn another till's redemption of
 * the same reward into a silent "done" instead of a conflict.
 */
export function mayHaveBeenApplied(error: BridgeError): boolean {
  switch (error.kind) {
    case 'offline':
      return !(error.code && (NEVER_SENT.has(error.code) || TLS_REFUSAL.test(error.code)));
    case 'timeout': // sent, no answer in time
    case 'server': // a 5xx may come after the change was made
    case 'bad_response': // something answered, but not in a way we can read
      return true;
    default: // a definite answer that refused it (401, 404, 422, 429, ...)
      return false;
  }
}
