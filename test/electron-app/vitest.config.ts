import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The Electron smoke test: the built app in the real Electron binary. Run only through
// `npm run test:electron` (build/test-electron.ts), which finds the binary and builds first.
export default defineConfig({
  test: {
    name: 'electron-app',
    root: fileURLToPath(new URL('../..', import.meta.url)),
    environment: 'node',
    include: ['test/electron-app/**/*.test.ts'],
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
