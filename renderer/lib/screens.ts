/** The screens of the till (stores/navigation.ts switches between them; the app has no URLs). */
export type Screen =
  | { name: 'find' }
  | { name: 'customer' }
  | { name: 'register' }
  | { name: 'correct' }
  | { name: 'reward' }
  | { name: 'outbox' }
  | { name: 'report' }
  | { name: 'settings'; firstRun?: boolean };

export type ScreenName = Screen['name'];

export const SCREEN_NAMES: readonly ScreenName[] = [
  'find',
  'customer',
  'register',
  'correct',
  'reward',
  'outbox',
  'report',
  'settings',
];
