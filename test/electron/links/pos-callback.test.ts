import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../sandbox';
import { configureService, createCoreFixture, type CoreFixture } from '../../support/app-core-fixture';
import { createCapturedLog } from '../../support/captured-log';
import { createPosCallback } from '../../../electron/links/pos-callback';

const KEY = 'callback-test-key-9911';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A POS on 127.0.0.1 that answers with the given statuses in turn (the last one repeats). */
async function startPos(
  statuses: number[],
): Promise<{ url: string; port: number; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += String(chunk)));
    request.on('end', () => {
      received.push({ headers: request.headers, body });
      response.writeHead(statuses[Math.min(received.length - 1, statuses.length - 1)] ?? 204).end();
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/outcome`,
    port,
    received,
    close: () => new Promise((done) => server.close(() => done())),
  };
}

const body = {
  event: 'loyalty-till.redemption' as const,
  link_id: '1b4e28ba-2fa1-41d2-883f-0016d3cca427',
  outcome: 'redeemed' as const,
  reward_code: 'RW-LAYLA001',
  order_reference: 'ORD-1042',
  points_balance: 70,
  card_serial_number: 'CC-0001',
  message: null,
  till_name: 'Till 1',
  cashier: 'Sara (12)',
};

describe('the POS callback', () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const step of cleanups.splice(0).reverse()) await step();
  });

  it('retries while the POS is not listening, then delivers', async () => {
    // A port nobody listens on yet: take one, close it, and start the POS there later.
    const probe = await startPos([204]);
    const { port } = probe;
    await probe.close();
    const log = createCapturedLog();
    const callback = createPosCallback({
      url: () => `http://127.0.0.1:${port}/outcome`,
      log,
      retryDelaysMs: [100, 300, 600, 1200],
    });
    const sent = callback.send(body);
    expect(sent.callback).toBe('sending');
    await new Promise((done) => setTimeout(done, 150));
    const pos = await new Promise<Server>((done) => {
      const server = createServer((request, response) => {
        request.resume();
        request.on('end', () => response.writeHead(204).end());
      });
      server.listen(port, '127.0.0.1', () => done(server));
    });
    cleanups.push(() => new Promise((done) => pos.close(done)));
    await expect(sent.delivery).resolves.toBe('delivered');
    expect(log.lines.some((line) => /could not be reached/.test(line))).toBe(true);
  });

  it('retries a 503 and gives up on a 400 without repeating it', async () => {
    const busy = await startPos([503, 204]);
    cleanups.push(busy.close);
    const log = createCapturedLog();
    await expect(
      createPosCallback({ url: () => busy.url, log, retryDelaysMs: [50] }).send(body).delivery,
    ).resolves.toBe('delivered');
    expect(busy.received).toHaveLength(2);

    const refusing = await startPos([400]);
    cleanups.push(refusing.close);
    await expect(
      createPosCallback({ url: () => refusing.url, log, retryDelaysMs: [50, 50] }).send(body).delivery,
    ).resolves.toBe('gave_up');
    expect(refusing.received).toHaveLength(1);
  });

  it('gives up after its retries, saying so in the log', async () => {
    const down = await startPos([500]);
    cleanups.push(down.close);
    const log = createCapturedLog();
    await expect(
      createPosCallback({ url: () => down.url, log, retryDelaysMs: [20, 20] }).send(body).delivery,
    ).resolves.toBe('gave_up');
    expect(down.received).toHaveLength(3);
    expect(log.lines.at(-1)).toMatch(/not delivered to the POS callback after 3 tries/);
  });

  it('sends nothing without a callback URL', async () => {
    const sent = createPosCallback({ url: () => null, log: createCapturedLog() }).send(body);
    expect(sent.callback).toBe('not_set');
    await expect(sent.delivery).resolves.toBe('not_set');
  });

  it('refuses to send a body that contains a secret', async () => {
    const pos = await startPos([204]);
    cleanups.push(pos.close);
    const sent = createPosCallback({ url: () => pos.url, log: createCapturedLog(), secrets: () => [KEY] }).send({
      ...body,
      message: `echo ${KEY}`,
    });
    await expect(sent.delivery).resolves.toBe('gave_up');
    expect(pos.received).toHaveLength(0);
  });
});

describe('sendLinkOutcome through the bridge', () => {
  let till: CoreFixture;
  let sandbox: Sandbox;
  const cleanups: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const step of cleanups.splice(0).reverse()) await step();
  });

  async function setUp(posUrl: string | null): Promise<void> {
    sandbox = await startSandbox({ port: 0, keys: { [KEY]: 'coffee-club' } });
    cleanups.push(() => sandbox.close());
    till = await createCoreFixture();
    cleanups.push(() => till.dispose());
    await configureService(till, sandbox.url, KEY);
    const saved = await till.call('updateSettings', { posCallbackUrl: posUrl });
    if (!saved.ok) throw new Error(saved.error.message);
  }

  it('posts the outcome of a link the main process handed out, once, without the key', async () => {
    const pos = await startPos([204]);
    cleanups.push(pos.close);
    await setUp(pos.url);
    const receipt = till.core.links.receive(
      'loyalty-till://reward?code=RW-LAYLA001&phone=%2B966501234567&order=ORD-1042',
      'second-instance',
    );
    if (!receipt.accepted) throw new Error(receipt.reason);
    const report = {
      link_id: receipt.id,
      outcome: 'redeemed',
      reward_code: 'RW-LAYLA001',
      order_reference: 'ORD-1042',
      points_balance: 70,
    };
    expect(await till.call('sendLinkOutcome', report)).toEqual({ ok: true, data: { callback: 'sending' } });
    await till.core.callbackDeliveries();
    expect(pos.received).toHaveLength(1);
    const [request] = pos.received;
    expect(request!.headers.authorization).toBeUndefined();
    expect(JSON.stringify(request)).not.toContain(KEY);
    expect(JSON.parse(request!.body)).toMatchObject({
      outcome: 'redeemed',
      reward_code: 'RW-LAYLA001',
      order_reference: 'ORD-1042',
      points_balance: 70,
    });

    // A second report of the same link, and reports of links never handed out, send nothing.
    expect(await till.call('sendLinkOutcome', report)).toMatchObject({ ok: false, error: { kind: 'validation' } });
    const invented = { ...report, link_id: '1b4e28ba-2fa1-41d2-883f-0016d3cca427' };
    expect(await till.call('sendLinkOutcome', invented)).toMatchObject({ ok: false, error: { kind: 'validation' } });
    await till.core.callbackDeliveries();
    expect(pos.received).toHaveLength(1);
  });

  it('sends nothing for a link to another code, and nothing without a callback URL', async () => {
    await setUp(null);
    const receipt = till.core.links.receive('loyalty-till://reward?code=RW-LAYLA001', 'open-url');
    if (!receipt.accepted) throw new Error(receipt.reason);
    const other = await till.call('sendLinkOutcome', {
      link_id: receipt.id,
      outcome: 'redeemed',
      reward_code: 'RW-OMAR0001',
    });
    expect(other).toMatchObject({ ok: false });

    const again = till.core.links.receive('loyalty-till://reward?code=RW-LAYLA001', 'open-url');
    if (!again.accepted) throw new Error(again.reason);
    expect(
      await till.call('sendLinkOutcome', { link_id: again.id, outcome: 'queued', reward_code: 'RW-LAYLA001' }),
    ).toEqual({
      ok: true,
      data: { callback: 'not_set' },
    });
  });

  it('validates the callback URL setting: https, or http only to this machine, no credentials', async () => {
    await setUp(null);
    for (const good of ['https://pos.example/loyalty', 'http://127.0.0.1:8080/cb?till=1', 'http://localhost:9000/']) {
      expect(await till.call('updateSettings', { posCallbackUrl: good })).toMatchObject({ ok: true });
    }
    for (const bad of [
      'http://pos.example/cb',
      'ftp://127.0.0.1/',
      'https://user:pw@pos.example/',
      'javascript:alert(1)',
      'https://pos.example/#x',
    ]) {
      const result = await till.call('updateSettings', { posCallbackUrl: bad });
      expect(result, bad).toMatchObject({
        ok: false,
        error: { kind: 'validation', fields: { posCallbackUrl: expect.any(String) } },
      });
    }
  });
});
