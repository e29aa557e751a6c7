import type { DisplayModel } from '../../common/display-model';

/** The customer display's idle model, as the till's page sends it with nothing on screen. */
export const IDLE_DISPLAY_MODEL: Readonly<DisplayModel> = Object.freeze<DisplayModel>({
  view: { kind: 'idle' },
  programme: 'Coffee Club',
  asOf: null,
  language: 'en',
  digits: 'arab',
  theme: 'system',
  idleSeconds: 30,
  revision: 1,
});
