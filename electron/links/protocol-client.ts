import { resolve } from 'node:path';
import { LINK_SCHEME } from './link-scheme';

/**
 * The arguments for `app.setAsDefaultProtocolClient` / `isDefaultProtocolClient`. The
 * installers register `loyalty-till://` themselves (electron-builder `protocols` on macOS,
 * build/installer.nsh on Windows); this is for a till where they did not (an unpacked build,
 * a copied folder). As in the installer's registry command, `--` ends the switches before the
 * link, so a crafted link can never be read as a Chromium or Electron switch. When Electron
 * runs the app from source (`process.defaultApp`), Windows must also be given the app's
 * folder, or the link would open a bare Electron. macOS ignores path and arguments.
 */
export function protocolClientArgs(options: {
  defaultApp: boolean;
  execPath: string;
  argv: readonly string[];
}): [protocol: string, path: string, args: string[]] {
  const appPath = options.argv[1];
  const args = options.defaultApp && appPath ? [resolve(appPath), '--'] : ['--'];
  return [LINK_SCHEME, options.execPath, args];
}
