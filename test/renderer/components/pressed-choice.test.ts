import { mount } from '@vue/test-utils';
import { expect, it } from 'vitest';
import PressedChoice from '../../../renderer/components/PressedChoice.vue';
import { i18n } from '../../../renderer/i18n';

// One of a few choices as pressed buttons (renderer/components/PressedChoice.vue): the report's
// period and its scope are both this group.
const CHOICES = [
  { value: 'till', words: 'shopReport.thisTill' },
  { value: 'shop', words: 'shopReport.wholeShop' },
] as const;

it('names its group, presses the chosen button only, and tells which was chosen', async () => {
  const view = mount(PressedChoice, {
    props: { label: 'Whose figures', choices: CHOICES, chosen: 'till', testIdPrefix: 'scope' },
    global: { plugins: [i18n] },
  });
  expect(view.attributes('role')).toBe('group');
  expect(view.attributes('aria-label')).toBe('Whose figures');
  const buttons = view.findAll('button');
  expect(buttons.map((button) => [button.attributes('data-testid'), button.attributes('aria-pressed')])).toEqual([
    ['scope-till', 'true'],
    ['scope-shop', 'false'],
  ]);
  expect(buttons.map((button) => button.text())).toEqual(['This till', 'The whole shop']);
  await buttons[1]!.trigger('click');
  expect(view.emitted('choose')).toEqual([['shop']]);
});
