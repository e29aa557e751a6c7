import { describe, expect, it } from 'vitest';
import { buildFeedOf, publisherNamesOf, updatesVerifiable } from '../../../electron/updates/app-update-file';

// app-update.yml as electron-builder writes it for a signed Windows build with a generic feed.
const SIGNED = [
  'provider: generic',
  'url: https://updates.example.com/till',
  'updaterCacheDirName: loyalty-till-updater',
  'publisherName:',
  '  - Loyalty Till Ltd',
  "  - 'Loyalty Till Ltd (2027)'",
  '',
].join('\n');

describe('what the build tells the updater', () => {
  it('reads the feed and the publishers', () => {
    expect(buildFeedOf(SIGNED)).toBe('https://updates.example.com/till');
    expect(publisherNamesOf(SIGNED)).toEqual(['Loyalty Till Ltd', 'Loyalty Till Ltd (2027)']);
    expect(publisherNamesOf('publisherName: "Loyalty Till Ltd"\n')).toEqual(['Loyalty Till Ltd']);
    expect(publisherNamesOf('publisherName: [A, "B"]\n')).toEqual(['A', 'B']);
    expect(buildFeedOf(null)).toBeNull();
  });

  it('lets a Windows build update itself only with a publisher to check the installer against', () => {
    expect(updatesVerifiable('win32', SIGNED)).toBe(true);
    expect(updatesVerifiable('win32', 'provider: generic\nurl: https://updates.example.com/till\n')).toBe(false);
    expect(updatesVerifiable('win32', null)).toBe(false);
    expect(updatesVerifiable('darwin', null)).toBe(true);
  });
});
