/**
 * What the build tells the updater: electron-builder writes `app-update.yml` beside the app
 * (in `resources/`) when the build names a feed (`LOYALTY_TILL_UPDATE_FEED`,
 * build/electron-builder.config.ts). Read as text with two patterns: the file is
 * electron-builder's own, flat, and only these two keys are needed.
 */

/** The feed the build names (`url:`), or null. */
export function buildFeedOf(appUpdateYml: string | null): string | null {
  const match = appUpdateYml ? /^url:\s*(.+?)\s*$/m.exec(appUpdateYml) : null;
  return match ? match[1]!.replace(/^(['"])(.*)\1$/, '$2') : null;
}

/**
 * The publisher names electron-builder wrote into app-update.yml for a signed Windows build
 * (`publisherName: X` or a list). Without one, electron-updater skips the signature check,
 * so the till refuses to update itself rather than install an unverified installer.
 */
export function publisherNamesOf(appUpdateYml: string | null): string[] {
  if (!appUpdateYml) return [];
  const lines = appUpdateYml.split(/\r?\n/);
  const unquote = (text: string) =>
    text
      .trim()
      .replace(/^(['"])(.*)\1$/, '$2')
      .trim();
  const index = lines.findIndex((line) => /^publisherName:/.test(line));
  if (index < 0) return [];
  const inline = lines[index]!.slice('publisherName:'.length).trim();
  if (inline.startsWith('[')) {
    return inline.slice(1, inline.lastIndexOf(']')).split(',').map(unquote).filter(Boolean);
  }
  if (inline) return [unquote(inline)];
  const names: string[] = [];
  for (const line of lines.slice(index + 1)) {
    const item = /^\s+-\s+(.*)$/.exec(line);
    if (!item) break;
    names.push(unquote(item[1]!));
  }
  return names.filter(Boolean);
}

/**
 * Whether this build may update itself: on Windows only with a publisher to check the
 * installer's signature against; on macOS Squirrel.Mac checks the app's own signature.
 */
export function updatesVerifiable(platform: NodeJS.Platform, appUpdateYml: string | null): boolean {
  return platform !== 'win32' || publisherNamesOf(appUpdateYml).length > 0;
}
