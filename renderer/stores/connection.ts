import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { BridgeError, ConnectionStatus } from '../../common/contract';
import { t } from '../i18n';
import { offlineReasonWords } from '../lib/connection-words';
import { useOfflineStore } from './offline';
import { till } from './till';

export type ConnectionState = 'unknown' | 'checking' | 'online' | 'failing' | 'offline' | 'unconfigured';

/** How often the header re-probes the service while the till is open. */
const PROBE_INTERVAL_MS = 30_000;

/**
 * What the header says about the service. Whether it can be reached comes from the offline
 * core's connection monitor, which learns from the outcome of every real call and probes
 * while offline; this store adds a slower probe of its own (which also feeds the monitor,
 * so an idle till notices a lost network) and the probe's detail: the mode, and whether the
 * service refused the key.
 */
export const useConnectionStore = defineStore('connection', () => {
  const offline = useOfflineStore();
  const status = ref<ConnectionStatus | null>(null);
  const checking = ref(false);
  let timer: ReturnType<typeof setInterval> | null = null;

  const state = computed<ConnectionState>(() => {
    if (status.value?.mode === 'unconfigured') return 'unconfigured';
    const monitor = offline.connection?.state;
    if (monitor === 'offline') return 'offline';
    // The replay found the key refused: the service answers, but not to this till.
    if (offline.pause) return 'failing';
    // Reachable, but answering with a refusal (a wrong key) or an error.
    if (status.value?.reachable === true && status.value.error) return 'failing';
    if (monitor === 'online') return 'online';
    if (!status.value) return checking.value ? 'checking' : 'unknown';
    if (status.value.reachable === false) return 'offline';
    if (status.value.reachable === true) return 'online';
    return 'unknown';
  });

  const label = computed(() => {
    switch (state.value) {
      case 'online':
        return t('connection.online');
      case 'failing':
        return offline.pause || status.value?.error?.kind === 'unauthorized'
          ? t('connection.keyRefused')
          : t('connection.problem');
      case 'offline':
        return t('connection.offline');
      case 'checking':
        return t('connection.checking');
      case 'unconfigured':
        return t('connection.unconfigured');
      default:
        return t('connection.unknown');
    }
  });

  /**
   * The state in a few words, for a narrow header (800 px) where the whole of `label` does
   * not fit beside the cashier and the outbox: shorter, never cut.
   */
  const shortLabel = computed(() => {
    if (state.value === 'offline') return t('connection.short.offline');
    if (state.value === 'failing')
      return offline.pause || status.value?.error?.kind === 'unauthorized'
        ? t('connection.short.keyRefused')
        : t('connection.short.problem');
    return label.value;
  });

  /** Why the till is offline, in the monitor's words, and when it next tries. */
  const detail = computed(() => {
    if (state.value !== 'offline') return null;
    const reason = offline.connection?.reason;
    return reason ? offlineReasonWords(reason) : (status.value?.error?.message ?? null);
  });

  async function refresh(): Promise<void> {
    if (checking.value) return;
    checking.value = true;
    try {
      const result = await till().connectionStatus();
      if (!result.ok) return;
      status.value = result.data;
      if (result.data.reachable === true) offline.noteReachable(true);
      else if (result.data.reachable === false) offline.noteReachable(false, result.data.error?.message);
    } finally {
      checking.value = false;
    }
  }

  /**
   * A call was refused in a way that says something about the connection (a rejected key):
   * shown at once rather than at the next probe. Unreachable services are the monitor's.
   */
  function noteFailure(error: BridgeError): void {
    if (error.kind !== 'unauthorized' || !status.value) return;
    status.value = { ...status.value, reachable: true, error };
  }

  function noteSuccess(): void {
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

  return {
    status,
    checking,
    state,
    label,
    shortLabel,
    detail,
    refresh,
    noteFailure,
    noteSuccess,
    startProbing,
    stopProbing,
  };
});
