import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import { useNavigationStore } from '../../../renderer/stores/navigation';

describe('navigation store', () => {
  beforeEach(() => setActivePinia(createPinia()));

  const names = () => useNavigationStore().stack.map((screen) => screen.name);

  it('starts on Find, and Esc never leaves it', () => {
    const navigation = useNavigationStore();
    expect(navigation.screen.name).toBe('find');
    navigation.back();
    expect(names()).toEqual(['find']);
  });

  it('goes back one screen at a time', () => {
    const navigation = useNavigationStore();
    navigation.go({ name: 'customer' });
    navigation.go({ name: 'reward' });
    navigation.back();
    expect(navigation.screen.name).toBe('customer');
  });

  it('returns to a screen already open instead of stacking a copy', () => {
    const navigation = useNavigationStore();
    navigation.go({ name: 'customer' });
    navigation.go({ name: 'reward' });
    navigation.go({ name: 'customer' });
    expect(names()).toEqual(['find', 'customer']);
  });

  it('replaces a form by the customer it produced, so Esc does not reopen the form', () => {
    const navigation = useNavigationStore();
    navigation.go({ name: 'customer' });
    navigation.go({ name: 'correct' });
    navigation.replace({ name: 'customer' });
    expect(names()).toEqual(['find', 'customer']);
    navigation.home();
    navigation.go({ name: 'register' });
    navigation.replace({ name: 'customer' });
    expect(names()).toEqual(['find', 'customer']);
  });

  it('shows only Settings on first run', () => {
    const navigation = useNavigationStore();
    navigation.go({ name: 'customer' });
    navigation.firstRun();
    expect(navigation.stack).toEqual([{ name: 'settings', firstRun: true }]);
  });
});
