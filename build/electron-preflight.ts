// Before a long build, make sure the Electron binaries the installers wrap can be had.
//
// Fetching goes through electron-builder's own downloader, so the cache, mirror and
// checksum rules are exactly those of the build that follows: whatever this step fetches
// the build finds in the cache. On a machine that cannot reach the binaries the result
// is one sentence for the terminal instead of a stack trace from deep inside the build.
import type { Configuration } from 'electron-builder';
import { downloadElectronArtifactZip } from 'app-builder-lib/out/util/electronGet';

export interface ElectronBinary {
  platform: 'win32' | 'darwin' | 'linux';
  arch: 'x64' | 'arm64';
}

export interface PreflightOptions {
  version: string;
  binaries: readonly ElectronBinary[];
  /** The build configuration's `electronDownload` (mirror, cache folder), if any. */
  electronDownload?: Configuration['electronDownload'];
  /** The Electron cache folder; the default is @electron/get's per-user cache. */
  cacheDir?: string;
}

export type PreflightResult = { ok: true; zips: string[] } | { ok: false; message: string };

export async function checkElectronBinaries(options: PreflightOptions): Promise<PreflightResult> {
  const zips: string[] = [];
  for (const { platform, arch } of options.binaries) {
    try {
      zips.push(
        await downloadElectronArtifactZip({
          version: options.version,
          platformName: platform,
          arch,
          artifactName: 'electron',
          electronDownload: options.electronDownload ?? undefined,
          cacheDir: options.cacheDir,
        }),
      );
    } catch (error) {
      return {
        ok: false,
        message:
          `Cannot build installers on this machine: the Electron ${options.version} binary for ${platform}-${arch} ` +
          `could not be fetched (${reason(error)}). Build where it can be downloaded, set ELECTRON_MIRROR, ` +
          `or put the zip in the Electron cache.`,
      };
    }
  }
  return { ok: true, zips };
}

/** The cause in a few words: a network code, or the first line of the message. */
function reason(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as Error & { code?: unknown }).code;
    const firstLine = error.message.split('\n')[0]!.trim();
    return typeof code === 'string' && !firstLine.includes(code) ? `${code}: ${firstLine}` : firstLine;
  }
  return String(error);
}
