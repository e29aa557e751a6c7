/**
 * The till's keys, one table (renderer/lib/app-keys.ts): no key runs two commands at once in any
 * context, the table's own finder would say so if one did, and no view, component or store of
 * the till's page listens for keys beside the one listener (stores/app-keys.ts).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, test } from 'vitest';
import { APP_KEYS, barKeys, commandFor, type AppKey, type KeyContext } from '../../../renderer/lib/app-keys';
import { SCREEN_NAMES, type ScreenName } from '../../../renderer/lib/screens';

/** Every context a key's meaning can depend on: each combination of the context's parts. */
function everyKeyContext(screens: readonly ScreenName[]): KeyContext[] {
  const flags = [
    'pinAsking',
    'linkHeld',
    'linkNotice',
    'configured',
    'outcomeShown',
    'splitQuestion',
    'displayAttached',
  ] as const;
  const contexts: KeyContext[] = [];
  for (const screen of screens) {
    for (const firstRun of screen === 'settings' ? [false, true] : [false]) {
      for (let bits = 0; bits < 1 << flags.length; bits++) {
        const context = { screen, firstRun } as KeyContext;
        flags.forEach((flag, i) => (context[flag] = (bits & (1 << i)) !== 0));
        contexts.push(context);
      }
    }
  }
  return contexts;
}

/** Two commands that one key runs at once, somewhere: each as "key: a, b in <context>". */
function keyConflicts(commands: readonly AppKey[], contexts: readonly KeyContext[]): string[] {
  const found = new Set<string>();
  for (const context of contexts) {
    const byKey = new Map<string, string[]>();
    for (const command of commands) {
      if (command.when(context)) byKey.set(command.key, [...(byKey.get(command.key) ?? []), command.id]);
    }
    for (const [key, ids] of byKey)
      if (ids.length > 1) found.add(`${key}: ${ids.join(', ')} in ${JSON.stringify(context)}`);
  }
  return [...found];
}

const ROOT = join(import.meta.dirname, '../../..');
const contexts = everyKeyContext(SCREEN_NAMES);
const at = (changes: Partial<KeyContext>): KeyContext => ({
  screen: 'find',
  firstRun: false,
  pinAsking: false,
  linkHeld: false,
  linkNotice: false,
  configured: true,
  outcomeShown: false,
  splitQuestion: false,
  displayAttached: false,
  ...changes,
});

describe('the key table', () => {
  test('no key runs two commands at once, in any screen, dialog or state', () => {
    expect(contexts.length).toBeGreaterThan(1000);
    expect(keyConflicts(APP_KEYS, contexts)).toEqual([]);
  });

  test('the finder names a key that two commands share in one context', () => {
    const clash: AppKey[] = [
      { id: 'find', key: 'F2', when: () => true },
      { id: 'report', key: 'F2', when: (c) => c.screen === 'outbox' },
    ];
    const found = keyConflicts(clash, contexts);
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((line) => line.startsWith('F2: find, report in ') && line.includes('"screen":"outbox"'))).toBe(
      true,
    );
  });

  test('each command has one key, and each key what it always meant', () => {
    expect(new Set(APP_KEYS.map((command) => command.id)).size).toBe(APP_KEYS.length);
    expect(commandFor('F6', at({ linkHeld: true }))?.id).toBe('acceptLink');
    expect(commandFor('F6', at({}))?.id).toBe('pickCashier');
    expect(commandFor('Escape', at({ screen: 'reward', outcomeShown: true, linkNotice: true }))?.id).toBe(
      'nextCustomer',
    );
    expect(commandFor('Escape', at({ screen: 'reward', splitQuestion: true }))?.id).toBe('askAtOtherTill');
    expect(commandFor('F5', at({ screen: 'reward', splitQuestion: true }))?.id).toBe('redeemAnyway');
    expect(commandFor('F5', at({ screen: 'reward' }))).toBeNull();
    expect(commandFor('Escape', at({ linkNotice: true }))?.id).toBe('dismissLink');
    expect(commandFor('Escape', at({ screen: 'outbox' }))?.id).toBe('back');
    expect(commandFor('F4', at({ screen: 'customer' }))?.id).toBe('correctDetails');
    expect(commandFor('F4', at({ screen: 'find' }))).toBeNull();
    // The first run: Settings alone, and F9 stays itself.
    expect(commandFor('F2', at({ screen: 'settings', firstRun: true }))).toBeNull();
    expect(commandFor('Escape', at({ screen: 'settings', firstRun: true }))).toBeNull();
    expect(commandFor('F9', at({ screen: 'settings', firstRun: true }))?.id).toBe('settings');
    // The manager PIN's dialog has the keys.
    for (const { key } of APP_KEYS) expect(commandFor(key, at({ pinAsking: true, linkHeld: true }))).toBeNull();
  });

  test('the bar offers what applies where it is new, the same while the PIN is asked', () => {
    const ids = (context: KeyContext) => barKeys(context).map((command) => command.id);
    expect(ids(at({ screen: 'find' }))).toEqual(['checkReward', 'report', 'settings']);
    expect(ids(at({ screen: 'customer', displayAttached: true }))).toEqual([
      'correctDetails',
      'back',
      'blankDisplay',
      'find',
      'checkReward',
      'report',
      'settings',
    ]);
    expect(ids(at({ screen: 'reward', outcomeShown: true }))).toEqual(['nextCustomer', 'find', 'report', 'settings']);
    expect(ids(at({ screen: 'outbox', pinAsking: true }))).toEqual(ids(at({ screen: 'outbox' })));
  });
});

/** The till page's source files: every view, component and store (the customer display's own page apart). */
function tillPageFiles(folder = join(ROOT, 'renderer')): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return name === 'display' ? [] : tillPageFiles(path);
    return /\.(ts|vue)$/.test(name) ? [path] : [];
  });
}

test('no view, component or store listens for keys of its own, nor names an app key but through the table', () => {
  // The one listener of app keys, and the scanner's (bursts of typed characters, not keys).
  const allowed = new Set(['renderer/stores/app-keys.ts', 'renderer/lib/scanner.ts', 'renderer/lib/app-keys.ts']);
  const offenders: string[] = [];
  for (const file of tillPageFiles()) {
    const name = relative(ROOT, file);
    if (allowed.has(name)) continue;
    const text = readFileSync(file, 'utf8');
    const script = name.endsWith('.vue') ? (text.match(/<script[\s\S]*?<\/script>/)?.[0] ?? '') : text;
    if (/addEventListener\(\s*['"]keydown/.test(text)) offenders.push(`${name}: a keydown listener`);
    if (/['"](F\d{1,2}|Escape)['"]/.test(script)) offenders.push(`${name}: an app key named by hand`);
  }
  expect(offenders).toEqual([]);
});
