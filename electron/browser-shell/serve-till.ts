import { existsSync, mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAppProtocolHandler } from '../app-page/app-protocol';
import { createAppCore, LAN_HOSTS } from '../bridge/app-core';
import { logFilesIn } from '../health/health-wiring';
import { startDiscovery } from '../shop-ledger/discovery';
import { describeError, quietConsoleLogger } from '../log/log';
import { createAppendLogger, teeLogger } from '../log/file-log';
import { createKeyFileCipher } from '../storage/key-file-cipher';
import { machinePolicySource } from '../policy/machine-policy';
import { newAccessSecret } from './access-guard';
import { takeInstanceLock, type InstanceLock } from './instance-lock';
import { keepPort, keptPort, portTakenLine } from './kept-port';
import { openInBrowser } from './open-browser';
import { bundlePageBridge } from './page-bridge-bundle';
import { startPageServer, type PageServer } from './page-server';
import { fail } from './fail';
import { KEY_FILE, LOG_FOLDER, type ShellOptions } from './shell-options';

// The browser shell serving the till (main.ts's errand, apart so that `--health` and
// `--import-api-key` never load the server, the bundler or the app's core): the lock, the
// kept port, the page server with the core, the one printed line, Ctrl+C.

const LOCK_FILE = 'browser-shell.lock.json';
/** The core's log: the terminal hears warnings and errors, the file every line (the support file reads it). */
const LOG_MAX_BYTES = 2 * 1024 * 1024;

export async function serveTill(options: ShellOptions, app: { version: string }): Promise<void> {
  if (!existsSync(join(options.rendererDir, 'index.html')))
    fail(`${join(options.rendererDir, 'index.html')} is missing; run "npm start" (it builds first) or "vite build".`);
  // Private to this user: it holds the key, its key file, and the lock with the secret.
  mkdirSync(options.userDataDir, { recursive: true, mode: 0o700 });

  const taken = takeInstanceLock(join(options.userDataDir, LOCK_FILE));
  if (!taken.held) {
    const { pid, address } = taken.holder;
    fail(
      address
        ? `already running for ${options.userDataDir} (pid ${pid}) at ${address}`
        : `another start is under way for ${options.userDataDir}; try again in a moment.`,
    );
  }
  const lock: InstanceLock = taken.lock;
  // Whatever ends the process, the folder is not left looking taken by a live shell.
  process.on('exit', () => lock.release());

  // One origin for one till: the port kept for this folder, unless --port moves it on purpose.
  const port = options.port ?? (await keptPort(options.userDataDir));
  let server: PageServer;
  try {
    server = await startPageServer({
      ...(port !== null ? { port } : {}),
      secret: newAccessSecret(),
      bridgeScript: await bundlePageBridge(),
      displayScript: await bundlePageBridge('display-bridge.ts'),
      appProtocol: createAppProtocolHandler({
        rootDir: options.rendererDir,
        fetchFile: async (fileUrl) => new Response(await readFile(fileURLToPath(fileUrl))),
      }),
      createCore: (appOrigin, shell) =>
        createAppCore({
          userDataDir: options.userDataDir,
          cipher: createKeyFileCipher(join(options.userDataDir, KEY_FILE)),
          appOrigin,
          displayOrigin: shell.displayOrigin,
          displayAddress: shell.displayAddress,
          policySource: machinePolicySource(options.policyFile ? { file: options.policyFile } : {}),
          log: teeLogger(
            quietConsoleLogger(),
            createAppendLogger(join(options.userDataDir, LOG_FOLDER, 'main.log'), { maxBytes: LOG_MAX_BYTES }),
          ),
          about: {
            version: app.version,
            shell: 'browser',
            logFiles: logFilesIn(join(options.userDataDir, LOG_FOLDER)),
          },
          // Node's idea of the user's locale (LANG, LC_ALL; the OS's on Windows and macOS).
          systemLanguages: () => [Intl.DateTimeFormat().resolvedOptions().locale],
          // The shop ledger on the LAN, found by mDNS (docs/shop-ledger.md).
          shopLedgerHosts: LAN_HOSTS,
          shopDiscovery: startDiscovery,
          saveFile: shell.saveFile,
        }),
    });
  } catch (error) {
    lock.release();
    // Never a silent new origin: that would be a till with an empty cache, in another storage.
    if (port !== null && (error as NodeJS.ErrnoException).code === 'EADDRINUSE')
      fail(portTakenLine(port, options.userDataDir));
    fail(`could not start: ${describeError(error)}`);
  }
  const { core, address } = server;
  await keepPort(options.userDataDir, Number(new URL(address).port));
  process.on('uncaughtException', (error) => core.log.error(`Uncaught: ${describeError(error)}`));
  process.on('unhandledRejection', (error) => core.log.error(`Unhandled rejection: ${describeError(error)}`));

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    // A second Ctrl+C while the demo saves: stop at once.
    if (stopping) process.exit(130);
    stopping = true;
    void server
      .close()
      .then(() => core.dispose())
      .catch((error) => core.log.error(`Shutting down: ${describeError(error)}`))
      .finally(() => {
        lock.release();
        console.log(`Loyalty Till stopped (${signal}).`);
        process.exit(0);
      });
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  process.on('SIGHUP', stop);

  lock.publish(address);
  for (const url of options.links) core.links.receive(url, 'command-line');
  // The customer display's address beside it, for a second screen of this computer only
  // (docs/screens.md#the-customer-display): a listener of its own, with a secret of its own,
  // so the display's address opens nothing of the till's. One line, as scripts read it.
  console.log(
    `Loyalty Till is running at ${address} (open it in a browser; Ctrl+C stops it); its customer display is at ${server.displayAddress}`,
  );
  if (options.openBrowser) openInBrowser(address);
}
