import { spawn } from 'node:child_process';

/**
 * Opens `url` in the default browser, where the machine has one, and never fails: the
 * address is printed anyway. On Linux only with a display, since without one `xdg-open` may
 * start a text browser inside the very terminal the shell runs in.
 */
export function openInBrowser(
  url: string,
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
): void {
  const command = browserCommand(url, platform, env);
  if (!command) return;
  try {
    const child = spawn(command.file, command.args, {
      stdio: 'ignore',
      detached: true,
      windowsHide: true,
      // `start`'s empty title and the quoted URL must reach cmd.exe as written.
      windowsVerbatimArguments: platform === 'win32',
    });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // No opener on this machine: the printed address is enough.
  }
}

export function browserCommand(
  url: string,
  platform: NodeJS.Platform,
  env: NodeJS.ProcessEnv,
): { file: string; args: string[] } | null {
  if (platform === 'darwin') return { file: 'open', args: [url] };
  // As Node runs a shell command on Windows: with /s, cmd drops the outer quotes and keeps the rest as written.
  if (platform === 'win32') return { file: 'cmd.exe', args: ['/d', '/s', '/c', `"start "" "${url}""`] };
  if (env.DISPLAY || env.WAYLAND_DISPLAY) return { file: 'xdg-open', args: [url] };
  return null;
}
