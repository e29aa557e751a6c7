import { describe, expect, test } from 'vitest';
import { createAccessGuard, newAccessSecret } from '../../../electron/browser-shell/access-guard';

const PORT = 41234;
const SECRET = newAccessSecret();
const guard = createAccessGuard({ port: PORT, secret: SECRET });
const APP = `http://127.0.0.1:${PORT}`;
const page = { websocket: false };
const socket = { websocket: true };

describe('the browser shell’s access guard', () => {
  test('a new secret each start, long and URL-safe', () => {
    expect(SECRET).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(newAccessSecret()).not.toBe(SECRET);
    expect(guard.address).toBe(`${APP}/${SECRET}/`);
  });

  test('lets the page’s own requests through, with the path after the secret', () => {
    expect(guard.check({ host: `127.0.0.1:${PORT}`, origin: undefined, url: `/${SECRET}/` }, page)).toEqual({
      allowed: true,
      path: '/',
    });
    expect(
      guard.check({ host: `127.0.0.1:${PORT}`, origin: APP, url: `/${SECRET}/assets/index.js?v=1` }, page),
    ).toEqual({ allowed: true, path: '/assets/index.js' });
    expect(guard.check({ host: `127.0.0.1:${PORT}`, origin: APP, url: `/${SECRET}/__till/socket` }, socket)).toEqual({
      allowed: true,
      path: '/__till/socket',
    });
  });

  test('sends localhost and the bare secret to the one address of the page', () => {
    expect(guard.check({ host: `localhost:${PORT}`, origin: undefined, url: `/${SECRET}/index.html` }, page)).toEqual({
      allowed: true,
      redirectTo: `${APP}/${SECRET}/index.html`,
    });
    expect(guard.check({ host: `127.0.0.1:${PORT}`, origin: undefined, url: `/${SECRET}` }, page)).toEqual({
      allowed: true,
      redirectTo: `${APP}/${SECRET}/`,
    });
  });

  test.each([
    ['no secret', { host: `127.0.0.1:${PORT}`, origin: undefined, url: '/' }],
    ['no secret, a file', { host: `127.0.0.1:${PORT}`, origin: undefined, url: '/index.html' }],
    ['a wrong secret', { host: `127.0.0.1:${PORT}`, origin: undefined, url: `/${newAccessSecret()}/` }],
    ['the secret cut short', { host: `127.0.0.1:${PORT}`, origin: undefined, url: `/${SECRET.slice(0, -1)}/` }],
    ['the secret in the query', { host: `127.0.0.1:${PORT}`, origin: undefined, url: `/?${SECRET}` }],
    ['a rebound name', { host: `evil.example:${PORT}`, origin: undefined, url: `/${SECRET}/` }],
    ['another port', { host: `127.0.0.1:${PORT + 1}`, origin: undefined, url: `/${SECRET}/` }],
    ['no Host', { host: undefined, origin: undefined, url: `/${SECRET}/` }],
    ['another origin', { host: `127.0.0.1:${PORT}`, origin: 'http://evil.example', url: `/${SECRET}/` }],
    ['the null origin', { host: `127.0.0.1:${PORT}`, origin: 'null', url: `/${SECRET}/` }],
    ['a target that is not a path', { host: `127.0.0.1:${PORT}`, origin: undefined, url: `http://x/${SECRET}/` }],
  ])('refuses a request with %s', (_what, head) => {
    expect(guard.check(head, page)).toMatchObject({ allowed: false });
  });

  test.each([
    ['no Origin', { host: `127.0.0.1:${PORT}`, origin: undefined, url: `/${SECRET}/__till/socket` }],
    ['another origin', { host: `127.0.0.1:${PORT}`, origin: 'http://evil.example', url: `/${SECRET}/__till/socket` }],
    [
      'localhost’s origin',
      { host: `localhost:${PORT}`, origin: `http://localhost:${PORT}`, url: `/${SECRET}/__till/socket` },
    ],
    ['no secret', { host: `127.0.0.1:${PORT}`, origin: APP, url: '/__till/socket' }],
  ])('refuses a WebSocket with %s', (_what, head) => {
    expect(guard.check(head, socket)).toMatchObject({ allowed: false, status: 403 });
  });

  test('a refusal says nothing of the secret', () => {
    const verdict = guard.check({ host: `127.0.0.1:${PORT}`, origin: undefined, url: '/' }, page);
    expect(JSON.stringify(verdict)).not.toContain(SECRET);
  });
});
