import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

/**
 * `page-bridge.ts` bundled for the page, once at start (tens of milliseconds): the shell runs
 * from source under tsx, on machines that have the project's development dependencies, so a
 * build step of its own would only add a file that can go stale.
 */
export async function bundlePageBridge(
  entry: 'page-bridge.ts' | 'display-bridge.ts' = 'page-bridge.ts',
): Promise<string> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL(`./${entry}`, import.meta.url))],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    // The renderer's own target (vite.config.ts).
    target: 'chrome130',
    write: false,
    logLevel: 'silent',
    legalComments: 'none',
  });
  const code = result.outputFiles[0]?.text;
  if (!code) throw new Error('Bundling the page bridge produced nothing.');
  return code;
}
