import { defineConfig } from 'vitest/config';
import vue from '@vitejs/plugin-vue';
import SummaryLineReporter from './test/summary-reporter';

// Three projects, split by where the code under test runs.
export default defineConfig({
  test: {
    reporters: ['default', new SummaryLineReporter()],
    projects: [
      {
        test: {
          name: 'node',
          environment: 'node',
          include: [
            'test/common/**/*.test.ts',
            'test/sandbox/**/*.test.ts',
            'test/electron/**/*.test.ts',
            'test/build/**/*.test.ts',
          ],
          // No multicast or broadcast on the machine's own network (docs/tests.md).
          setupFiles: ['test/support/host-network-guard-setup.ts'],
        },
      },
      {
        plugins: [vue()],
        test: {
          name: 'renderer',
          environment: 'happy-dom',
          include: ['test/renderer/**/*.test.ts'],
          setupFiles: ['fake-indexeddb/auto'],
        },
      },
      {
        test: {
          // Real headless Chromium against a real sandbox: one file at a time.
          name: 'e2e',
          environment: 'node',
          include: ['test/e2e/**/*.test.ts'],
          setupFiles: ['test/support/host-network-guard-setup.ts'],
          // The renderer built once for the run, not once a file (test/e2e/global-setup.ts).
          globalSetup: ['test/e2e/global-setup.ts'],
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
