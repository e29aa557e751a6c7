import { describe, expect, it } from 'vitest';
import { ERROR_KINDS } from '../../../common/contract';
import { describeError } from '../../../renderer/lib/error-words';

describe('error words', () => {
  it('has a title and advice for every kind of bridge error', () => {
    for (const kind of ERROR_KINDS) {
      const words = describeError({ kind });
      expect(words.title.length, kind).toBeGreaterThan(5);
      expect(words.advice.length, kind).toBeGreaterThan(5);
    }
  });

  it('gives different words to different kinds, so the cashier can tell them apart', () => {
    const titles = ERROR_KINDS.map((kind) => describeError({ kind }).title);
    expect(new Set(titles).size).toBe(ERROR_KINDS.length);
  });

  it('says what was not found', () => {
    expect(describeError({ kind: 'not_found' }, 'reward').title).toContain('No reward with this code');
    expect(describeError({ kind: 'not_found' }, 'customer').title).toContain('No such customer');
  });

  it('tells how long to wait when the service said', () => {
    expect(describeError({ kind: 'rate_limited', retryAfterMs: 2500 }).advice).toBe('Try again in 3 seconds.');
    expect(describeError({ kind: 'rate_limited' }).advice).toBe('Try again in a moment.');
  });
});
