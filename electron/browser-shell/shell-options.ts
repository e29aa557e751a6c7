import { homedir } from 'node:os';
import { join } from 'node:path';
import { linksInArgv } from '../links/till-link';
import { IMPORT_API_KEY_FLAG } from '../storage/key-import';
import { HEALTH_FLAG } from '../health/health-flag';
import { isPort, LOWEST_PORT } from './kept-port';

export interface ShellOptions {
  /** Settings, the key, its key file, the demo's data and the lock. */
  userDataDir: string;
  /** The built renderer: `dist/renderer`, as Electron's `app://till` serves it. */
  rendererDir: string;
  /** Whether to open the default browser at the address. */
  openBrowser: boolean;
  /** `loyalty-till://` links on the command line, as the Electron shell takes them at start. */
  links: string[];
  /** `--import-api-key`: store the key read from standard input, then exit (no page, no server). */
  importApiKey: boolean;
  /** `--health`: print the till's health as JSON and exit 0, 1 or 2 (no page, no server, no lock). */
  health: boolean;
  /** `--policy-file`: the organisation's policy read from here instead of the machine's (development only). */
  policyFile: string | null;
  /** `--port`: this port instead of the one kept for the folder (kept-port.ts), kept from now on. */
  port: number | null;
}

export const USAGE =
  'npm start -- --browser [--user-data-dir <folder>] [--port <port>] [--renderer-dir <folder>] [--policy-file <file>] [--no-open] [--import-api-key | --health] [loyalty-till://…]';

/** In the user-data folder: the key file both keys are sealed under, and the logs' folder. */
export const KEY_FILE = 'api-key.key';
export const LOG_FOLDER = 'logs';

/**
 * The command line of `electron/browser-shell/main.ts` (what `npm start` passes on). Options
 * take `--name value` or `--name=value`; `--browser` is `build/launch.ts`'s choice and is
 * accepted here too. Anything else is an error, so a mistyped option is not silently ignored.
 */
export function readShellOptions(
  argv: readonly string[],
  defaults: { rendererDir: string; userDataDir: string },
): ShellOptions | { error: string } {
  const options: ShellOptions = {
    ...defaults,
    openBrowser: true,
    links: linksInArgv(argv),
    importApiKey: false,
    health: false,
    policyFile: null,
    port: null,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (options.links.includes(arg) || arg === '--browser') continue;
    if (arg === '--no-open') {
      options.openBrowser = false;
      continue;
    }
    if (arg === IMPORT_API_KEY_FLAG) {
      options.importApiKey = true;
      continue;
    }
    if (arg === HEALTH_FLAG) {
      options.health = true;
      continue;
    }
    const [name, inline] = arg.split(/=(.*)/s, 2) as [string, string | undefined];
    if (name === '--port') {
      const value = inline ?? argv[++i];
      const port = value !== undefined && /^\d{1,5}$/.test(value) ? Number(value) : NaN;
      if (!isPort(port)) return { error: `--port needs a port from ${LOWEST_PORT} to 65535.` };
      options.port = port;
      continue;
    }
    if (name === '--user-data-dir' || name === '--renderer-dir' || name === '--policy-file') {
      const value = inline ?? argv[++i];
      if (!value) return { error: `${name} needs a ${name === '--policy-file' ? 'file' : 'folder'}.` };
      if (name === '--user-data-dir') options.userDataDir = value;
      else if (name === '--renderer-dir') options.rendererDir = value;
      else options.policyFile = value;
      continue;
    }
    return { error: `unknown option "${arg}". Usage: ${USAGE}` };
  }
  return options;
}

/**
 * Where the browser shell keeps its data by default: beside the Electron app's folder, not in
 * it. The Electron app's key is sealed by the OS's store, which this shell cannot open, and a
 * key this shell saved would be unreadable to the app; each keeps its own.
 */
export function defaultUserDataDir(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
): string {
  const name = 'Loyalty Till (browser)';
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), name);
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', name);
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), name);
}
