/**
 * Why the till is offline, as the connection monitor keeps it (offline/connection/) and the
 * words read it (lib/connection-words.ts): a reason, never words, so a language switch
 * re-words it. `said`: what the bridge or the service said, passed on as said.
 */
export type OfflineReason = { code: 'lost_network' } | { code: 'unreachable' } | { code: 'said'; message: string };
