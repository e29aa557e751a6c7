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
    // Find's own keys fill the bar: the report's F7 works there but is not listed.
    expect(bar('find').keys).toEqual(['↑ ↓', 'Enter', 'PgUp PgDn', 'F3', 'F8', 'F9']);
    expect(bar('outbox').keys).toEqual(['Esc', 'F2', 'F3', 'F7', 'F9']);
    expect(bar('settings').keys).toEqual(['Esc', 'F2', 'F3', 'F7', 'F8']);
    expect(bar('customer').keys).toEqual(['F4', 'Esc', 'F2', 'F3', 'F7', 'F8', 'F9']);
    expect(bar('report').keys).toEqual(['Esc', 'F2', 'F3', 'F8', 'F9']);
  });

  it('marks F7 (a manager’s key), F8 (the header has it), F9 and the scanning line as for wide screens only', () => {
    expect(bar('customer').wide).toEqual(['F7', 'F8', 'F9']);
    expect(bar('customer').scan).toBe(true);
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
