/**
 * The words of forgetting the till's data (docs/privacy.md#forgetting-a-till): what is lost with
 * the items waiting in the outbox, and why the till starts blank, in each reason's words.
 */
import { t, tPlural, type MessageKey } from '../i18n';
import { formatCount } from '../i18n/format';
import { formatDayTime } from './dates';

/** The items waiting in the outbox, as the page counts them (stores/till-data.ts `ForgetStep`). */
export interface WaitingCounts {
  waiting: number;
  redemptions: number;
  registrations: number;
}

/** "2 redemptions and 1 registration", from what the page knows of each kind. */
function waitingWhat(counts: WaitingCounts): string {
  const parts = [
    counts.redemptions > 0
      ? tPlural('forgetWords.redemptions', counts.redemptions, { count: formatCount(counts.redemptions) })
      : null,
    counts.registrations > 0
      ? tPlural('forgetWords.registrations', counts.registrations, { count: formatCount(counts.registrations) })
      : null,
  ].filter((part): part is string => part !== null);
  if (parts.length === 2) return t('forgetWords.both', { first: parts[0]!, second: parts[1]! });
  return parts[0] ?? tPlural('forgetWords.items', counts.waiting, { count: formatCount(counts.waiting) });
}

/**
 * The second question's paragraphs: how many items wait and of what kind, that forgetting (or
 * switching) deletes them and they never reach the service, and what to do instead.
 */
export function waitingLossLines(counts: WaitingCounts, action: 'forget' | 'switch'): string[] {
  const params = { count: formatCount(counts.waiting), what: waitingWhat(counts) };
  return [
    tPlural(action === 'forget' ? 'forgetWords.lossForget' : 'forgetWords.lossSwitch', counts.waiting, params),
    tPlural('forgetWords.lossMeans', counts.waiting, params),
    t('forgetWords.lossInstead'),
  ];
}

/** Why the till starts blank (stores/till-data.ts `DataNotice`), taken by its shape: lib/ imports no store. */
export interface DataNoticeFacts {
  reason: 'forgotten' | 'switched' | 'other_key' | 'key_lost';
  at: string;
  /** For `key_lost`: the main process's reason, where it gave one. */
  loss?: 'unreadable' | 'store_unavailable' | 'missing' | 'not_kept' | null;
}

const KEY_LOST_WORDS: Record<NonNullable<DataNoticeFacts['loss']>, MessageKey> = {
  unreadable: 'dataNotice.keyLost.unreadable',
  store_unavailable: 'dataNotice.keyLost.storeUnavailable',
  missing: 'dataNotice.keyLost.missing',
  not_kept: 'dataNotice.keyLost.notKept',
};

/** The notice's sentence, in the interface language of the moment. */
export function dataNoticeWords(notice: DataNoticeFacts): string {
  const time = formatDayTime(notice.at);
  switch (notice.reason) {
    case 'forgotten':
      return t('dataNotice.forgotten', { time });
    case 'switched':
      return t('dataNotice.switched', { time });
    case 'other_key':
      return t('dataNotice.otherKey');
    case 'key_lost':
      return t(notice.loss ? KEY_LOST_WORDS[notice.loss] : 'dataNotice.keyLost.unknown');
  }
}
