import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { BridgeError, ConnectionStatus } from '../../electron/contract';
import { till } from './till';

export type ConnectionState = 'unknown' | 'checking' | 'online' | 'failing' | 'offline' | 'unconfigured';

/** How often the header re-probes the service while the till is open. */
const PROBE_INTERVAL_MS = 30_000;

/** Kinds of failure that mean "the service can't be reached", as opposed to a refused request. */
const UNREACHABLE_KINDS = new Set(['offline', 'timeout']);

export const useConnectionStore = defineStore('connection', () => {
  const status = ref<ConnectionStatus | null>(null);
  const checking = ref(false);
  /** Set when an ordinary call failed to reach the service, before the next probe confirms it. */
  const lastFailure = ref<BridgeError | null>(null);
  let timer: ReturnType<typeof setInterval> | null = null;

  const state = computed<ConnectionState>(() => {
    // A call that just failed to reach the service is the freshest news there is.
    if (lastFailure.value) return 'offline';
    if (!status.value) return checking.value ? 'checking' : 'unknown';
    if (status.value.mode === 'unconfigured') return 'unconfigured';
    if (status.value.reachable === false) return 'offline';
    // Reachable, but answering with a refusal (a wrong key) or an error.
    if (status.value.reachable === true) return status.value.error ? 'failing' : 'online';
    return 'unknown';
  });

  const label = computed(() => {
    switch (state.value) {
      case 'online':
        return 'Connected';
      case 'failing':
        return status.value?.error?.kind === 'unauthorized' ? 'Connected, key refused' : 'Service reports a problem';
      case 'offline':
        return 'Service unreachable';
      case 'checking':
        return 'Checking…';
      case 'unconfigured':
        return 'Not set up';
      default:
        return 'Not checked yet';
    }
  });

  async function refresh(): Promise<void> {
    if (checking.value) return;
    checking.value = true;
    try {
      const result = await till().connectionStatus();
      if (result.ok) {
        status.value = result.data;
        lastFailure.value = null;
      }
    } finally {
      checking.value = false;
    }
  }

  /** Stores call this with every failed call, so the header does not wait for the next probe. */
  function noteFailure(error: BridgeError): void {
    if (UNREACHABLE_KINDS.has(error.kind)) lastFailure.value = error;
  }

  function noteSuccess(): void {
    lastFailure.value = null;
    if (status.value && (status.value.reachable === false || status.value.error)) {
      const { error: _error, ...rest } = status.value;
      status.value = { ...rest, reachable: true };
    }
  }

  function startProbing(): void {
    if (timer) return;
    timer = setInterval(() => void refresh(), PROBE_INTERVAL_MS);
  }

  function stopProbing(): void {
    if (timer) clearInterval(timer);
    timer = null;
  }

  return { status, checking, lastFailure, state, label, refresh, noteFailure, noteSuccess, startProbing, stopProbing };
});
