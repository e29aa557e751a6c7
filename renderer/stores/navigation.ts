import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { Screen } from '../lib/screens';

/** The screens of the till (lib/screens.ts): a small store-driven switch, the app has no URLs to route. */
export type { Screen, ScreenName } from '../lib/screens';

export const useNavigationStore = defineStore('navigation', () => {
  /** Screens behind the current one, for Esc. Find is always at the bottom. */
  const stack = ref<Screen[]>([{ name: 'find' }]);

  const screen = computed<Screen>(() => stack.value[stack.value.length - 1] ?? { name: 'find' });

  function go(next: Screen): void {
    // Going to a screen already in the stack returns to it instead of piling up copies.
    const existing = stack.value.findIndex((entry) => entry.name === next.name);
    if (existing >= 0) stack.value = [...stack.value.slice(0, existing), next];
    else stack.value = [...stack.value, next];
  }

  /** Replaces the current screen (e.g. register -> the customer it produced). */
  function replace(next: Screen): void {
    stack.value = [...stack.value.slice(0, -1), next];
    const index = stack.value.findIndex((entry) => entry.name === next.name);
    if (index < stack.value.length - 1) stack.value = stack.value.slice(0, index + 1);
  }

  function back(): void {
    if (stack.value.length > 1) stack.value = stack.value.slice(0, -1);
  }

  function home(): void {
    stack.value = [{ name: 'find' }];
  }

  /** First run: nothing but the settings screen until the till is configured. */
  function firstRun(): void {
    stack.value = [{ name: 'settings', firstRun: true }];
  }

  return { stack, screen, go, replace, back, home, firstRun };
});
