import { describe, expect, test } from 'vitest';
import { createRedactingLogger, redact } from '../../../electron/log/log';
import { errorFromResponse, parseRetryAfter, readErrorBody } from '../../../electron/service/api-errors';
import { createRendererErrorLog } from '../../../electron/bridge/renderer-error-log';
import { retryDelay } from '../../../electron/service/service-transport';
import { createCapturedLog } from '../../support/captured-log';

describe('redaction', () => {
  test('strips the current secrets and any bearer token from every message', () => {
    const log = createCapturedLog();
    let secrets = ['first-secret-key'];
    const redacting = createRedactingLogger(log, () => secrets);
    redacting.info('using first-secret-key twice: first-secret-key');
    redacting.warn('Authorization: Bearer someone.elses-token_123');
    secrets = ['second-secret-key'];
    redacting.error('now second-secret-key, and first-secret-key is no longer known');
    expect(log.lines).toEqual([
      'info using [redacted] twice: [redacted]',
      'warn Authorization: Bearer [redacted]',
      'error now [redacted], and first-secret-key is no longer known',
    ]);
  });

  test('does not blank out ordinary words for an empty or tiny secret', () => {
    expect(redact('a bearer of good news', ['', 'a'])).toBe('a bearer of good news');
  });
});

describe('reading error bodies of any shape', () => {
  test.each([
    [
      {
        ok: false,
        error: { code: 'validation_failed', message: 'Check the fields', fields: { phone: ['Too short'] } },
      },
      { code: 'validation_failed', message: 'Check the fields', fields: { phone: 'Too short' } },
    ],
    [
      { message: 'The given data was invalid.', errors: { email: ['Taken.', 'Other'] } },
      { message: 'The given data was invalid.', fields: { email: 'Taken.' } },
    ],
    [
      { error: 'reward_unavailable', message: 'Used' },
      { code: 'reward_unavailable', message: 'Used' },
    ],
    [{ detail: 'Problem details style' }, { message: 'Problem details style' }],
    ['Plain text error', { message: 'Plain text error' }],
    ['<!DOCTYPE html><html><body>Oops</body></html>', {}],
    [null, {}],
    [[1, 2, 3], {}],
    [{ error: { code: 'has spaces in it', message: 42 } }, {}],
  ])('%j', (body, parts) => {
    expect(readErrorBody(body)).toEqual(parts);
  });

  test('a very long message is shortened', () => {
    expect(readErrorBody({ message: 'x'.repeat(1000) }).message).toHaveLength(300);
  });

  test('statuses map to the closed set of kinds', () => {
    const kinds = [400, 401, 403, 404, 405, 408, 409, 413, 415, 422, 429, 500, 502, 503].map(
      (status) => errorFromResponse(status, '').kind,
    );
    expect(kinds).toEqual([
      'validation',
      'unauthorized',
      'unauthorized',
      'not_found',
      'bad_response',
      'timeout',
      'validation',
      'validation',
      'validation',
      'validation',
      'rate_limited',
      'server',
      'server',
      'server',
    ]);
    expect(errorFromResponse(422, { error: { code: 'reward_unavailable' } }).kind).toBe('reward_unavailable');
  });
});

describe('Retry-After and retry policy', () => {
  test('reads seconds and HTTP dates', () => {
    const now = Date.parse('2026-11-22T10:00:00Z');
    expect(parseRetryAfter('5', now)).toBe(5000);
    expect(parseRetryAfter('Sun, 22 Nov 2026 10:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Sun, 22 Nov 2026 09:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });

  test('retries only offline, server and rate-limited answers, within the wait limit', () => {
    const policy = { attempts: 3, baseDelayMs: 100, maxWaitMs: 2000 };
    expect(retryDelay({ kind: 'rate_limited', message: '', retryAfterMs: 1500 }, 1, policy)).toBe(1500);
    expect(retryDelay({ kind: 'rate_limited', message: '', retryAfterMs: 60_000 }, 1, policy)).toBeNull();
    for (const kind of [
      'timeout',
      'unauthorized',
      'not_found',
      'validation',
      'reward_unavailable',
      'bad_response',
    ] as const) {
      expect(retryDelay({ kind, message: '' }, 1, policy)).toBeNull();
    }
    for (let attempt = 1; attempt <= 5; attempt++) {
      const wait = retryDelay({ kind: 'server', message: '' }, attempt, policy)!;
      const backoff = 100 * 2 ** (attempt - 1);
      expect(wait).toBeGreaterThanOrEqual(Math.min(2000, backoff / 2));
      expect(wait).toBeLessThanOrEqual(Math.min(2000, backoff * 1.5));
    }
  });
});

describe('renderer error reports', () => {
  test('one line per report (no forged entries), rate-limited per minute, with a note of what was dropped', () => {
    const log = createCapturedLog();
    let now = 0;
    const report = createRendererErrorLog(log, () => now);
    report({ message: 'line one\nerror fake entry', source: 'view\r\nx' });
    expect(log.lines).toEqual(['error Renderer error in view x: line one error fake entry']);
    for (let i = 0; i < 40; i++) report({ message: `flood ${i}` });
    expect(log.lines).toHaveLength(30);
    now = 61_000;
    report({ message: 'after a minute' });
    expect(log.lines.slice(-2)).toEqual([
      'warn 11 renderer error reports were dropped in the last minute.',
      'error Renderer error: after a minute',
    ]);
  });
});
