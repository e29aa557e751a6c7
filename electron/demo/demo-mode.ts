import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { readFileIfExists, writeFileAtomic } from '../storage/atomic-file';
import type { ServiceTarget } from '../service/loyalty-api';
import type { Logger } from '../log/log';

/** The programme the demo key earns on (one of the sandbox's programmes). */
const DEMO_PROGRAMME = 'coffee-club';

export interface DemoMode {
  /** Whether the till is in demo mode, remembered across restarts. */
  isOn(): boolean;
  /** The running demo service, or null when it is not running (yet). */
  running(): ServiceTarget | null;
  /** Turns demo mode on (and remembers it), starting the sandbox if it is not running. */
  start(): Promise<ServiceTarget>;
  /** Turns demo mode off for good: stops the sandbox and forgets the mode. Its data file stays. */
  turnOff(): Promise<void>;
  /** Stops the sandbox but keeps demo mode on, for when the app quits. */
  shutdown(): Promise<void>;
  /** The id of the programme the demo key earns on, for the till's "This till's programme". */
  programId(): Promise<string>;
}

type RunningSandbox = { url: string; close(): Promise<void> | void };

/**
 * Demo mode: the sandbox service, started in this process on 127.0.0.1 with an ephemeral
 * port and a freshly generated key (the key is never stored: the sandbox is told it at
 * each start). Its data file lives in `<dir>/sandbox.json`, so customers registered in the
 * demo are still there after a restart.
 */
export async function openDemoMode(options: { dir: string; log: Logger }): Promise<DemoMode> {
  const { dir, log } = options;
  const stateFile = join(dir, 'state.json');
  let on = await readRemembered(stateFile);
  let current: { target: ServiceTarget; sandbox: RunningSandbox } | null = null;
  let starting: Promise<ServiceTarget> | null = null;

  async function launch(): Promise<ServiceTarget> {
    // Loaded on demand: a till on a real service never loads the sandbox's server code.
    const { startSandbox } = await import('../../sandbox');
    const apiKey = `demo-${randomBytes(24).toString('base64url')}`;
    const sandbox = await startSandbox({
      port: 0,
      keys: { [apiKey]: DEMO_PROGRAMME },
      dataFile: join(dir, 'sandbox.json'),
    });
    current = { target: { baseUrl: sandbox.url, apiKey }, sandbox };
    log.info(`Demo service started at ${sandbox.url}.`);
    return current.target;
  }

  async function stopSandbox(): Promise<void> {
    if (starting) await starting.catch(() => undefined);
    const running = current;
    current = null;
    if (running) {
      await running.sandbox.close();
      log.info('Demo service stopped.');
    }
  }

  return {
    isOn: () => on,
    running: () => current?.target ?? null,
    async start() {
      if (!on) {
        await writeFileAtomic(stateFile, `${JSON.stringify({ on: true })}\n`, 0o600);
        on = true;
      }
      if (current) return current.target;
      starting ??= launch().finally(() => {
        starting = null;
      });
      return starting;
    },
    async turnOff() {
      await stopSandbox();
      await rm(stateFile, { force: true });
      on = false;
    },
    shutdown: stopSandbox,
    async programId() {
      // The sandbox's programmes have fixed ids, kept in its data file, so the demo data's
      // list is the answer for every demo start. From the same module as startSandbox: in
      // the packed app that is the demo's own bundle, loaded only for the demo.
      const { PROGRAMS } = await import('../../sandbox');
      const programme = PROGRAMS.find((candidate) => candidate.slug === DEMO_PROGRAMME);
      if (!programme) throw new Error(`The sandbox has no "${DEMO_PROGRAMME}" programme.`);
      return programme.id;
    },
  };
}

/** Whether the demo was on when the till last ran (`state.json`); the health check reads it without starting anything. */
export async function readRemembered(stateFile: string): Promise<boolean> {
  const raw = await readFileIfExists(stateFile);
  if (!raw) return false;
  try {
    return (JSON.parse(raw.toString('utf8')) as { on?: unknown }).on === true;
  } catch {
    return false;
  }
}
