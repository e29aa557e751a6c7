/**
 * The browser shell as a person runs it: its entry (electron/browser-shell/main.ts) started
 * as a child process with a folder of its own, its one printed line read for the address, and
 * its bridge reached over its WebSocket as the page reaches it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WebSocket } from 'ws';
import { HOST_NETWORK_GUARD_SETUP } from '../support/host-network-guard';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ENTRY = join(ROOT, 'electron/browser-shell/main.ts');
export const ADDRESS_LINE = /^Loyalty Till is running at (http:\/\/127\.0\.0\.1:(\d+)\/([A-Za-z0-9_-]+)\/) /m;

export interface Shell {
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
}

/** The entry as `npm start -- --browser` runs it (from source, with tsx), in a test that may send nothing off the machine. */
export function spawnEntry(args: readonly string[]): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', '--import', HOST_NETWORK_GUARD_SETUP, ENTRY, ...args], {
    cwd: ROOT,
    env: { ...process.env, LANG: 'en_GB.UTF-8', LC_ALL: 'en_GB.UTF-8' },
    stdio: 'pipe',
  });
}

export function runShell(userDataDir: string, rendererDir: string, more: readonly string[] = []): Shell {
  const child = spawnEntry(['--user-data-dir', userDataDir, '--renderer-dir', rendererDir, '--no-open', ...more]);
  let output = '';
  child.stdout?.on('data', (chunk) => (output += String(chunk)));
  child.stderr?.on('data', (chunk) => (output += String(chunk)));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

export async function addressOf(shell: Shell): Promise<string> {
  for (let waited = 0; waited < 60_000; waited += 50) {
    const found = ADDRESS_LINE.exec(shell.output());
    if (found) return found[1]!;
    if (shell.child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`The browser shell printed no address:\n${shell.output()}`);
}

/** Stops the shell as Ctrl+C does, and waits for it to exit. */
export async function stopShell(shell: Shell): Promise<number | null> {
  if (shell.child.exitCode === null) shell.child.kill('SIGINT');
  return shell.exited;
}

/** Opens a bridge socket: `open` with it, or the status it was refused with. */
export function openSocket(
  url: string,
  origin?: string,
): Promise<{ open: WebSocket } | { status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, origin ? { origin } : {});
    socket.on('open', () => resolve({ open: socket }));
    socket.on('unexpected-response', (_request, response) => {
      let body = '';
      response.on('data', (chunk) => (body += String(chunk)));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    socket.on('error', (error) => reject(error));
  });
}

/** One bridge call over a socket, as the page makes it. */
export function callOver(socket: WebSocket, channel: string, payload?: unknown): Promise<unknown> {
  const id = Math.floor(Math.random() * 1e9);
  return new Promise((resolve) => {
    const onMessage = (data: Buffer) => {
      const message = JSON.parse(String(data)) as { id?: number };
      if (message.id !== id) return;
      socket.off('message', onMessage);
      resolve(message);
    };
    socket.on('message', onMessage);
    socket.send(JSON.stringify({ id, channel, payload }));
  });
}

/** The bridge socket's address for a page address printed by the shell. */
export function socketUrlOf(address: string): string {
  const url = new URL(address);
  return `ws://${url.host}${url.pathname}__till/socket`;
}
