// Bundles the Electron main process and the preload with esbuild into dist/main/.
//
// The preload runs sandboxed, where `require` reaches only `electron` and a few Node
// built-ins: so it is bundled whole (the contract's `createTillApi` inlined). The main
// process keeps the runtime `dependencies` from package.json external: electron-builder
// ships them in node_modules, and bundling them would duplicate them.
import { build, type BuildOptions } from 'esbuild';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(`${root}/package.json`, 'utf8')) as { dependencies?: Record<string, string> };

const common: BuildOptions = {
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  // Electron 45 runs Node 22.
  target: 'node22',
  sourcemap: false,
  logLevel: 'warning',
  legalComments: 'none',
};

/** `outDir` is relative to the project; tests build elsewhere so they never race a pack over dist/. */
export async function buildMain(outDir = 'dist/main'): Promise<void> {
  await Promise.all([
    build({
      ...common,
      entryPoints: ['electron/main.ts'],
      outfile: `${outDir}/main.cjs`,
      external: ['electron', ...Object.keys(pkg.dependencies ?? {})],
    }),
    build({
      ...common,
      entryPoints: ['electron/preload.ts'],
      outfile: `${outDir}/preload.cjs`,
      external: ['electron'],
    }),
  ]);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  buildMain().then(
    () => console.log('Built dist/main/main.cjs and dist/main/preload.cjs'),
    (error: unknown) => {
      console.error(`build:main failed: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    },
  );
}
