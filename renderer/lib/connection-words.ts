/**
 * Why the till is offline, in the interface language of the moment: the connection monitor
 * keeps a reason (vocabulary/connection.ts `OfflineReason`), never words, so
 * call this from a computed or a render and a language switch re-words it. What the bridge or
 * the service said is passed on as said.
 */
import { t } from '../i18n';
import type { OfflineReason } from '../vocabulary/connection';

export function offlineReasonWords(reason: OfflineReason): string {
  switch (reason.code) {
    case 'lost_network':
      return t('connection.lostNetwork');
    case 'unreachable':
      return t('connection.unreachable');
    case 'said':
      return reason.message;
  }
}
