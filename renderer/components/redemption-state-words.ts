/**
 * The end-of-shift report's redemption states in words, one message each: the report's
 * figures, its tables, its chart's legend and its list of open items all say them alike.
 */
import type { MessageKey } from '../i18n';
import type { RedemptionState } from '../offline';

export const REDEMPTION_STATE_WORDS: Readonly<Record<RedemptionState, MessageKey>> = Object.freeze({
  done: 'shiftReport.state.done',
  queued: 'shiftReport.state.queued',
  conflict: 'shiftReport.state.conflict',
  failed: 'shiftReport.state.failed',
  refused: 'shiftReport.state.refused',
});
