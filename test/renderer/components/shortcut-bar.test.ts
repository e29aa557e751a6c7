import { mount } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import ShortcutBar from '../../../renderer/components/ShortcutBar.vue';
import { i18n } from '../../../renderer/i18n';
import type { ScreenName } from '../../../renderer/stores/navigation';

const global = { plugins: [i18n] };

function bar(screen: ScreenName, options: { firstRun?: boolean; outcome?: boolean; scanning?: boolean } = {}) {
  const view = mount(ShortcutBar, {
    props: { screen, firstRun: false, outcome: false, scanning: true, ...options },
    global,
  });
  return {
    keys: view.findAll('.shortcut kbd').map((key) => key.text()),
    text: view.text(),
    /** Keys shown on wide screens only. */
    wide: view.findAll('.shortcut--wide kbd').map((key) => key.text()),
    scan: view.find('.shortcut--scan').exists(),
  };
}

describe('the shortcut bar', () => {
  it('leaves out the key of the screen on show, and Esc where Esc leads', () => {
    // The report is in the bar on Find too: a touch-only till has no F7.
    // F8 is the header's Outbox button, which shows its key.
    expect(bar('find').keys).toEqual(['↑ ↓', 'Enter', 'PgUp PgDn', 'F3', 'F7', 'F9']);
    expect(bar('outbox').keys).toEqual(['Esc', 'F2', 'F3', 'F7', 'F9']);
    expect(bar('settings').keys).toEqual(['Esc', 'F2', 'F3', 'F7']);
    expect(bar('customer').keys).toEqual(['F4', 'Esc', 'F2', 'F3', 'F7', 'F9']);
    expect(bar('report').keys).toEqual(['Esc', 'F2', 'F3', 'F9']);
  });

  it('keeps F7 and F9 at every width, and leaves F2 (Esc leads there), the list keys and the scanning line to wide screens', () => {
    expect(bar('customer').wide).toEqual(['F2']);
    expect(bar('find').wide).toEqual(['↑ ↓', 'PgUp PgDn']);
    expect(bar('customer').scan).toBe(true);
    // Find says it in the screen itself.
    expect(bar('find').scan).toBe(false);
  });

  it('is a row of buttons for the app-wide keys: a tap does what the key does', async () => {
    const view = mount(ShortcutBar, {
      props: { screen: 'find', firstRun: false, outcome: false, scanning: true },
      global,
    });
    expect(view.findAll('button.shortcut kbd').map((key) => key.text())).toEqual(['F3', 'F7', 'F9']);
    await view.get('[data-testid="shortcut-F7"]').trigger('click');
    await view.get('[data-testid="shortcut-F9"]').trigger('click');
    expect(view.emitted('press')).toEqual([['F7'], ['F9']]);
  });

  it('says Esc is "next customer" on an outcome, and "back" elsewhere', () => {
    expect(bar('reward', { outcome: true }).text).toContain('Esc next customer');
    expect(bar('reward').text).toContain('Esc back');
    expect(bar('reward', { outcome: true }).text).not.toContain('back');
  });

  it('promises no scanning before the till is set up, and offers only Tab on first run', () => {
    expect(bar('settings', { firstRun: true, scanning: false })).toMatchObject({ keys: ['Tab'], scan: false });
    expect(bar('find', { scanning: false }).scan).toBe(false);
  });
});
