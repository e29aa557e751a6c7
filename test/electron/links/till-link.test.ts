import { describe, expect, it } from 'vitest';
import { createPageDoor } from '../../../electron/app-page/page-door';
import { createLinkInbox } from '../../../electron/links/link-inbox';
import { createLinkRateLimit } from '../../../electron/links/link-rate-limit';
import { linksInArgv, MAX_LINK_LENGTH, parseTillLink } from '../../../electron/links/till-link';
import { createCapturedLog } from '../../support/captured-log';

describe('parseTillLink: the routes', () => {
  it('customer: an international phone, its + kept', () => {
    expect(parseTillLink('loyalty-till://customer?phone=+966501234567')).toEqual({
      ok: true,
      request: { route: 'customer', phone: '+966501234567' },
    });
    expect(parseTillLink('loyalty-till://customer?phone=%2B966501234567')).toMatchObject({
      request: { phone: '+966501234567' },
    });
  });

  it('customer: a local number with its country', () => {
    expect(parseTillLink('loyalty-till://customer?phone=0501234567&country=sa')).toEqual({
      ok: true,
      request: { route: 'customer', phone: '0501234567', country: 'SA' },
    });
  });

  it('reward: code, phone and order; the code’s prefix normalised as the bridge does', () => {
    expect(parseTillLink('loyalty-till://reward?code=rw-LAYLA001&phone=+966501234567&order=ORD-1042')).toEqual({
      ok: true,
      request: { route: 'reward', code: 'RW-LAYLA001', phone: '+966501234567', order: 'ORD-1042' },
    });
  });

  it('every route may name the cashier at the POS, by name or number, trimmed', () => {
    expect(parseTillLink('loyalty-till://reward?code=RW-OMAR0001&cashier=%20Sara%20Ali%20')).toEqual({
      ok: true,
      request: { route: 'reward', code: 'RW-OMAR0001', cashier: 'Sara Ali' },
    });
    expect(parseTillLink('loyalty-till://customer?phone=+966501234567&cashier=12')).toMatchObject({
      request: { route: 'customer', cashier: '12' },
    });
    expect(parseTillLink('loyalty-till://register?name=Omar&cashier=%D8%B3%D8%A7%D8%B1%D8%A9')).toMatchObject({
      request: { route: 'register', cashier: 'سارة' },
    });
    expect(parseTillLink('loyalty-till://find?q=layla&cashier=7')).toMatchObject({
      request: { route: 'find', cashier: '7' },
    });
    for (const bad of [
      'loyalty-till://reward?code=RW-OMAR0001&cashier=',
      `loyalty-till://reward?code=RW-OMAR0001&cashier=${'x'.repeat(61)}`,
      'loyalty-till://reward?code=RW-OMAR0001&cashier=Sara%E2%80%AEevil',
      'loyalty-till://reward?code=RW-OMAR0001&cashier=a&cashier=b',
    ]) {
      expect(parseTillLink(bad), bad).toMatchObject({ ok: false });
    }
  });

  it('reward: the code alone (the till asks for the phone)', () => {
    expect(parseTillLink('loyalty-till://reward?code=RW-OMAR0001')).toEqual({
      ok: true,
      request: { route: 'reward', code: 'RW-OMAR0001' },
    });
  });

  it('register: name and phone, spaces as + or %20', () => {
    expect(parseTillLink('loyalty-till://register?name=Layla+Haddad&phone=%2B966%2050%20123%204567')).toEqual({
      ok: true,
      request: { route: 'register', name: 'Layla Haddad', phone: '+966 50 123 4567' },
    });
    expect(parseTillLink('loyalty-till://register')).toEqual({ ok: true, request: { route: 'register' } });
  });

  it('find: the query, with Unicode', () => {
    expect(parseTillLink('loyalty-till://find?q=S%C3%B8ren')).toEqual({
      ok: true,
      request: { route: 'find', q: 'Søren' },
    });
  });

  it('accepts a trailing slash after the route and any case in scheme and route (as Windows may pass them)', () => {
    expect(parseTillLink('LOYALTY-TILL://Find/?q=Layla')).toEqual({ ok: true, request: { route: 'find', q: 'Layla' } });
  });

  it('keeps markup in free text as inert text (Vue shows it as text; it is never parsed)', () => {
    expect(parseTillLink('loyalty-till://find?q=%3Cscript%3Ealert(1)%3C%2Fscript%3E')).toEqual({
      ok: true,
      request: { route: 'find', q: '<script>alert(1)</script>' },
    });
  });
});

describe('parseTillLink: hostile links are refused whole', () => {
  const long = 'x'.repeat(300);
  const hostile: Array<[string, unknown, RegExp]> = [
    // Bad codes
    ['bad code shape', 'loyalty-till://reward?code=LAYLA001&phone=%2B966501234567', /code: A reward code/],
    ['code with a space', 'loyalty-till://reward?code=RW-LAY%20LA', /code:/],
    ['empty code', 'loyalty-till://reward?code=', /code:/],
    ['missing code', 'loyalty-till://reward?phone=%2B966501234567', /code:/],
    ['code with a script', 'loyalty-till://reward?code=RW-%3Cscript%3E', /code:/],
    ['over-long code', `loyalty-till://reward?code=RW-${'A'.repeat(80)}`, /too long/],
    // Scripts and markup where they cannot belong
    ['script in the phone', 'loyalty-till://customer?phone=%3Cscript%3Ealert(1)%3C/script%3E', /phone:/],
    [
      'img onerror in the phone',
      'loyalty-till://customer?phone=%22%3E%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E',
      /phone:/,
    ],
    ['letters in the phone', 'loyalty-till://customer?phone=call-me', /phone:/],
    ['javascript: in the country', 'loyalty-till://customer?phone=0501234567&country=javascript:alert(1)', /country:/],
    // Over-long values and links
    ['over-long order', `loyalty-till://reward?code=RW-A1&order=${'9'.repeat(101)}`, /order:/],
    ['over-long name', `loyalty-till://register?name=${long}`, /name:/],
    ['over-long query', `loyalty-till://find?q=${long}`, /q:/],
    ['over-long link', `loyalty-till://find?q=a&${'z='.repeat(MAX_LINK_LENGTH)}`, /longer than/],
    // Unknown routes and parameters, including ones that ask for actions
    ['redeem route', 'loyalty-till://redeem?code=RW-LAYLA001&phone=%2B966501234567', /Unknown route/],
    ['settings route', 'loyalty-till://settings?baseUrl=https://evil.example', /Unknown route/],
    ['empty route', 'loyalty-till://?q=x', /Unknown route/],
    ['__proto__ route', 'loyalty-till://__proto__?q=x', /Unknown route/],
    ['redeem=1 on a reward', 'loyalty-till://reward?code=RW-LAYLA001&redeem=1', /Unknown parameter "redeem"/],
    [
      'callback from a link',
      'loyalty-till://reward?code=RW-LAYLA001&callback=https://evil.example',
      /Unknown parameter "callback"/,
    ],
    ['a parameter of another route', 'loyalty-till://find?q=x&order=ORD-1', /order: This field is not accepted/],
    ['__proto__ parameter', 'loyalty-till://find?q=x&__proto__=1', /Unknown parameter "__proto__"/],
    ['constructor parameter', 'loyalty-till://find?q=x&constructor=1', /Unknown parameter "constructor"/],
    ['a path after the route', 'loyalty-till://find/../../settings?q=x', /path/],
    // Scheme games
    ['javascript: URL', 'javascript:alert(1)', /does not start with loyalty-till/],
    ['javascript: as a host', 'loyalty-till://javascript:alert(1)', /well-formed|port/],
    ['data: URL', 'data:text/html,<script>alert(1)</script>', /does not start/],
    ['another scheme with our name inside', 'https://evil.example/loyalty-till://find?q=x', /does not start/],
    ['no // after the scheme', 'loyalty-till:find?q=x', /must start with loyalty-till:\/\//],
    ['credentials', 'loyalty-till://admin:secret@find?q=x', /user name/],
    ['a port', 'loyalty-till://find:8080?q=x', /port/],
    ['a fragment', 'loyalty-till://find?q=x#javascript:alert(1)', /fragment/],
    // Repeated parameters
    ['repeated phone', 'loyalty-till://customer?phone=%2B966501234567&phone=%2B971501234567', /more than once/],
    ['repeated code, different case', 'loyalty-till://reward?code=RW-A1&code=rw-b2', /more than once/],
    // Percent-encoding tricks
    ['broken escape', 'loyalty-till://find?q=%E0%A4%A', /badly percent-encoded/],
    ['lone percent', 'loyalty-till://find?q=100%', /badly percent-encoded/],
    ['encoded NUL', 'loyalty-till://find?q=a%00b', /control characters/],
    ['encoded new line (log injection)', 'loyalty-till://find?q=a%0D%0AINFO%20fake%20log%20line', /control characters/],
    ['right-to-left override', 'loyalty-till://register?name=abc%E2%80%AEfdp.exe', /control characters/],
    ['zero-width space in a code', 'loyalty-till://reward?code=RW-A%E2%80%8B1', /control characters/],
    ['raw tab in the link', 'loyalty-till://find?q=a\tb', /control characters/],
    ['double-encoded script in a code', 'loyalty-till://reward?code=RW-%253Cscript%253E', /code:/],
    ['encoded parameter name that is not allowed', 'loyalty-till://find?q=x&%72edeem=1', /Unknown parameter "redeem"/],
    ['encoded & inside a value does not smuggle a parameter', 'loyalty-till://reward?code=RW-A1%26redeem%3D1', /code:/],
    // Not text at all
    ['not a string', 42, /not text/],
    ['null', null, /not text/],
  ];

  it('has at least 30 hostile cases', () => {
    expect(hostile.length).toBeGreaterThanOrEqual(30);
  });

  it.each(hostile)('%s', (_name, link, reason) => {
    const parsed = parseTillLink(link);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.reason).toMatch(reason);
      // One line, for the log, with no control characters from the link.
      expect(parsed.reason).not.toMatch(/[\r\n\0]/);
    }
  });

  it('an encoded & stays inside its value: the smuggled parameter is not read', () => {
    const parsed = parseTillLink('loyalty-till://find?q=tea%26redeem%3D1');
    expect(parsed).toEqual({ ok: true, request: { route: 'find', q: 'tea&redeem=1' } });
  });
});

describe('linksInArgv', () => {
  it('takes only loyalty-till: arguments from a command line', () => {
    expect(linksInArgv(['C:\\Loyalty Till.exe', '--', 'loyalty-till://find?q=x'])).toEqual(['loyalty-till://find?q=x']);
    expect(linksInArgv(['app', '--inspect=9229', 'https://x.example', '--gpu-launcher=calc'])).toEqual([]);
  });
});

describe('the link inbox', () => {
  function inbox(now: () => number) {
    const log = createCapturedLog();
    const page = createPageDoor({ log });
    const links = createLinkInbox({ log, page, rateLimit: createLinkRateLimit({ burst: 3, refillMs: 2000, now }) });
    return { links, log, page };
  }

  it('keeps the latest request and refusal until the page asks, then pushes', () => {
    const { links, page } = inbox(() => 0);
    links.receive('loyalty-till://find?q=one', 'command-line');
    links.receive('loyalty-till://nope', 'command-line');
    links.receive('loyalty-till://find?q=two', 'command-line');
    const pushed: unknown[] = [];
    page.attach((_channel, message) => pushed.push(message));
    const taken = links.take();
    expect(taken.map((m) => m.kind)).toEqual(['refused', 'request']);
    expect(taken[1]).toMatchObject({ request: { route: 'find', q: 'two' } });
    expect(links.take()).toEqual([]);
    expect(pushed).toHaveLength(0);
  });

  it('a flood of 100 links in one second: three are taken, the rest refused, and the log gets two lines, not a hundred', () => {
    let clock = 0;
    const { links, log, page } = inbox(() => clock);
    const pushed: unknown[] = [];
    page.attach((_channel, message) => pushed.push(message));
    links.take();
    const receipts = Array.from({ length: 100 }, (_, i) => {
      clock = i * 10; // 100 links within one second
      return links.receive(`loyalty-till://find?q=flood${i}`, 'second-instance');
    });
    expect(receipts.filter((r) => r.accepted)).toHaveLength(3);
    // The page sees the three requests and one quiet refusal, not 97.
    expect(pushed).toHaveLength(4);
    const floodLines = log.lines.filter((line) => /too many/.test(line));
    expect(floodLines).toHaveLength(1);
    clock = 10_000;
    expect(links.receive('loyalty-till://find?q=later', 'second-instance')).toMatchObject({ accepted: true });
    expect(log.lines.some((line) => /96 more links were refused/.test(line))).toBe(true);
  });

  it('logs a refused link in one line without its values', () => {
    const { links, log } = inbox(() => 0);
    links.receive('loyalty-till://customer?phone=%3Cscript%3E', 'open-url');
    const lines = log.lines;
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/Refused a link to customer \(open-url\): phone:/);
    expect(lines[0]).not.toContain('<script>');
  });

  it('hands out a reward link for its outcome report once', () => {
    const { links } = inbox(() => 0);
    const receipt = links.receive('loyalty-till://reward?code=RW-A1&order=ORD-1', 'second-instance');
    if (!receipt.accepted) throw new Error(receipt.reason);
    expect(links.claimRewardLink(receipt.id)).toMatchObject({ code: 'RW-A1', order: 'ORD-1' });
    expect(links.claimRewardLink(receipt.id)).toBeNull();
  });
});
