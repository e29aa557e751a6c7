// Bundles the Electron main process, the preload and the demo sandbox with esbuild into
// dist/main/. The packed app carries these bundles and no node_modules at all.
//
// - preload.cjs: runs sandboxed, where `require` reaches only `electron` and a few Node
//   built-ins, so it is bundled whole (the contract's `createTillApi` inlined).
// - main.cjs: the main process with its libraries (axios, zod, electron-log, fflate for the
//   support file's zip, libphonenumber-js with the "min" metadata it reads country codes from)
//   inlined.
//   Only `electron` stays external: it is provided by the runtime, and nothing native is used.
// - demo-sandbox.cjs: the sandbox service (fastify and its dependencies), required from
//   main.cjs only when the till starts the demo, so a till on a real service never loads it.
import { build, type BuildOptions, type Plugin } from 'esbuild';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The file name of the demo's bundle, beside main.cjs. */
export const DEMO_SANDBOX_BUNDLE = 'demo-sandbox.cjs';

const shared: BuildOptions = {
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  // Electron 45 runs Node 22.
  target: 'node22',
  sourcemap: false,
  logLevel: 'warning',
  legalComments: 'none',
  // Runtime code reads NODE_ENV to drop development checks.
  define: { 'process.env.NODE_ENV': '"production"' },
  minifySyntax: true,
  minifyWhitespace: true,
};

/**
 * demo-mode.ts imports `../../sandbox` dynamically; in the bundle that import becomes a
 * require of the separate demo bundle instead of inlining the whole service into main.cjs.
 */
const demoSandboxOnDemand: Plugin = {
  name: 'demo-sandbox-on-demand',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^(\.\.\/)+sandbox$/ }, (args) =>
      args.importer.replace(/\\/g, '/').endsWith('electron/demo/demo-mode.ts')
        ? { path: 'demo-sandbox', namespace: 'demo-sandbox' }
        : undefined,
    );
    // A CommonJS require (resolved beside main.cjs, inside app.asar) rather than an ES import().
    pluginBuild.onLoad({ filter: /.*/, namespace: 'demo-sandbox' }, () => ({
      contents: `module.exports = require(${JSON.stringify(`./${DEMO_SANDBOX_BUNDLE}`)});`,
      loader: 'js',
    }));
    pluginBuild.onResolve({ filter: /^\.\/demo-sandbox\.cjs$/ }, (args) => ({ path: args.path, external: true }));
  },
};

/** `outDir` is relative to the project; tests build elsewhere so they never race a pack over dist/. */
export async function buildMain(outDir = 'dist/main'): Promise<void> {
  await Promise.all([
    build({
      ...shared,
      entryPoints: ['electron/shell/main.ts'],
      outfile: `${outDir}/main.cjs`,
      external: ['electron'],
      plugins: [demoSandboxOnDemand],
    }),
    build({
      ...shared,
      entryPoints: ['sandbox/index.ts'],
      outfile: `${outDir}/${DEMO_SANDBOX_BUNDLE}`,
      external: ['electron'],
    }),
    build({
      ...shared,
      entryPoints: ['electron/shell/preload.ts'],
      outfile: `${outDir}/preload.cjs`,
      external: ['electron'],
    }),
    // The customer display's window has its own preload: `window.tillDisplay` only.
    build({
      ...shared,
      entryPoints: ['electron/shell/display-preload.ts'],
      outfile: `${outDir}/display-preload.cjs`,
      external: ['electron'],
    }),
  ]);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  buildMain().then(
    () => console.log(`Built dist/main/main.cjs, dist/main/preload.cjs and dist/main/${DEMO_SANDBOX_BUNDLE}`),
    (error: unknown) => {
      console.error(`build:main failed: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    },
  );
}
