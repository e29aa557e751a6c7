import { createHash } from 'node:crypto';
import {
  request as httpRequest,
  createServer,
  type ClientRequest,
  type IncomingMessage,
  type RequestOptions,
  type Server,
} from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configureRequestOptions, configureRequestUrl, HttpExecutor, type DownloadOptions } from 'builder-util-runtime';
import { NsisUpdater } from 'electron-updater';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createElectronUpdaterPort } from '../../../electron/updates/electron-updater-port';
import { resolveUpdateConfig } from '../../../electron/updates/update-config';
import { judgeOffer } from '../../../electron/updates/update-decisions';
import { createUpdateScheduler } from '../../../electron/updates/update-scheduler';
import { createCapturedLog } from '../../support/captured-log';

/**
 * electron-updater itself, read against a local HTTP feed, as far as it goes under plain Node.
 * It imports without Electron (it asks for `electron` only when it has no app adapter or
 * HTTP executor of its own), so an NsisUpdater is built here with an app adapter and a
 * node:http executor in place of Electron's `net`: its feed reading, staging hook, downgrade
 * refusal, SHA-512 check and signature hook are the real code. What needs a real till (the
 * Authenticode check in PowerShell, Squirrel.Mac, the installer run by quitAndInstall) is in
 * the Electron smoke test's list (docs/operations.md).
 */
class NodeHttpExecutor extends HttpExecutor<ClientRequest> {
  createRequest(options: RequestOptions, callback: (response: IncomingMessage) => void): ClientRequest {
    return httpRequest(options as never, callback);
  }

  /** What electron-updater's own executor adds: a download to a file, through the base class's checks. */
  download(url: URL, destination: string, options: DownloadOptions): Promise<string> {
    return new Promise((resolve, reject) => {
      const requestOptions: RequestOptions = { headers: options.headers ?? undefined };
      configureRequestUrl(url, requestOptions);
      configureRequestOptions(requestOptions);
      this.doDownload(
        requestOptions,
        {
          destination,
          options,
          onCancel: () => undefined,
          callback: (error) => (error ? reject(error) : resolve(destination)),
          responseHandler: null,
        },
        0,
      );
    });
  }
}

const INSTALLER = Buffer.from('stands for Loyalty-Till-Setup-1.5.0.exe');
const sha512 = (data: Buffer) => createHash('sha512').update(data).digest('base64');

function feedYml(version: string, more: { sha512?: string; stagingPercentage?: number } = {}): string {
  const file = `Loyalty-Till-Setup-${version}.exe`;
  return [
    `version: ${version}`,
    'files:',
    `  - url: ${file}`,
    `    sha512: ${more.sha512 ?? sha512(INSTALLER)}`,
    `    size: ${INSTALLER.length}`,
    `path: ${file}`,
    `sha512: ${more.sha512 ?? sha512(INSTALLER)}`,
    ...(more.stagingPercentage === undefined ? [] : [`stagingPercentage: ${more.stagingPercentage}`]),
    `releaseDate: '2026-11-26T10:00:00.000Z'`,
    '',
  ].join('\n');
}

describe('electron-updater against a local feed', () => {
  let server: Server;
  let feedUrl: string;
  let latest = feedYml('1.5.0');
  const requested: string[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      // electron-updater adds `?noCache=…` to the feed file: the path is what counts.
      const path = new URL(req.url ?? '/', 'http://feed').pathname;
      requested.push(path);
      if (/^\/till\/[a-z-]+\.yml$/.test(path)) {
        res.writeHead(200, { 'content-type': 'text/yaml' }).end(latest);
      } else if (path.startsWith('/till/Loyalty-Till-Setup-')) {
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': INSTALLER.length });
        res.end(INSTALLER);
      } else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    feedUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/till`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'till-updater-'));
    requested.length = 0;
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  /** An updater for an installed 1.4.0, as the app sets it up, over the feed. */
  async function updaterFor(options: { publisherName?: string; tillId?: string } = {}) {
    await writeFile(
      join(dir, 'app-update.yml'),
      [
        'provider: generic',
        `url: ${feedUrl}`,
        'updaterCacheDirName: loyalty-till-updater',
        ...(options.publisherName ? [`publisherName: ${options.publisherName}`] : []),
        '',
      ].join('\n'),
    );
    const updater = new NsisUpdater(null, {
      version: '1.4.0',
      name: 'Loyalty Till',
      isPackaged: true,
      appUpdateConfigPath: join(dir, 'app-update.yml'),
      userDataPath: dir,
      baseCachePath: join(dir, 'cache'),
      whenReady: () => Promise.resolve(),
      relaunch: () => undefined,
      quit: () => undefined,
      onQuit: () => undefined,
    });
    (updater as unknown as { httpExecutor: HttpExecutor<ClientRequest> }).httpExecutor = new NodeHttpExecutor();
    updater.disableDifferentialDownload = true;
    const log = createCapturedLog();
    const config = resolveUpdateConfig({ feedUrl }, { feedUrl: null });
    const tillId = options.tillId ?? 'SHOP12-TILL3';
    const port = createElectronUpdaterPort(updater, {
      accept: ({ version, stagingPercentage }) =>
        judgeOffer({ config, current: '1.4.0', offered: version, stagingPercentage, tillId }).take,
      log,
    });
    port.configure(config, true);
    return { updater, port, log, config, tillId };
  }

  it('reads the feed and downloads a newer version, its SHA-512 checked', async () => {
    latest = feedYml('1.5.0');
    const { updater, port } = await updaterFor();
    expect(await port.check()).toEqual({ version: '1.5.0' });
    expect(requested[0]).toMatch(/^\/till\/latest(-linux)?\.yml$/);
    await port.download();
    expect(requested).toContain('/till/Loyalty-Till-Setup-1.5.0.exe');
    // electron-updater's own settings, as the port left them.
    expect(updater.autoDownload).toBe(false);
    expect(updater.allowDowngrade).toBe(false);
    expect(updater.autoInstallOnAppQuit).toBe(true);
  });

  it('refuses a download whose checksum does not match the feed', async () => {
    latest = feedYml('1.5.0', { sha512: sha512(Buffer.from('another file')) });
    const { port } = await updaterFor();
    await port.check();
    await expect(port.download()).rejects.toThrow(/sha512 checksum mismatch/i);
  });

  it('refuses an installer whose publisher signature does not check out', async () => {
    latest = feedYml('1.5.0');
    const { updater, port } = await updaterFor({ publisherName: 'Loyalty Till Ltd' });
    const asked: string[][] = [];
    updater.verifyUpdateCodeSignature = async (publishers) => {
      asked.push(publishers);
      return 'the installer is signed by someone else';
    };
    await port.check();
    await expect(port.download()).rejects.toThrow(/not signed by the application owner/);
    expect(asked).toEqual([['Loyalty Till Ltd']]);
  });

  it('offers no downgrade: an older version in the feed is not available', async () => {
    latest = feedYml('1.3.0');
    const { updater, port } = await updaterFor();
    expect(await port.check()).toEqual({ version: '1.3.0' });
    await expect(port.download()).rejects.toThrow(/check update first/i);
    expect(requested.some((path) => path.endsWith('.exe'))).toBe(false);
    expect(updater.allowDowngrade).toBe(false);
  });

  it('honours the feed’s stagingPercentage with the till’s own bucket, through the scheduler', async () => {
    latest = feedYml('1.5.0', { stagingPercentage: 0 });
    const { port, config, tillId, log } = await updaterFor();
    const scheduler = createUpdateScheduler({
      port,
      config: () => config,
      current: '1.4.0',
      tillId,
      idle: () => true,
      clock: () => new Date(2026, 10, 26, 14).getTime(),
      log,
    });
    expect(await scheduler.tick()).toMatchObject({ state: 'idle', note: 'not_in_stage' });
    expect(requested.some((path) => path.endsWith('.exe'))).toBe(false);

    latest = feedYml('1.5.0', { stagingPercentage: 100 });
    const everyone = await updaterFor();
    expect(await everyone.port.check()).toEqual({ version: '1.5.0', stagingPercentage: 100 });
    await everyone.port.download();
  });
});
