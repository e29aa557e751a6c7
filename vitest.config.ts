import { defineConfig } from 'vitest/config';
import vue from '@vitejs/plugin-vue';
import SummaryLineReporter from './test/summary-reporter';

/** Tests that make network namespaces (hosts of their own, mDNS): root and iproute2 (docs/tests.md). */
const NETWORK_NAMESPACE_TESTS = [
  'test/electron/shop-ledger/discovery.test.ts',
  'test/electron/shop-ledger/multi-host.test.ts',
];

const NODE_TESTS = ['test/common/**/*.test.ts', 'test/sandbox/**/*.test.ts', 'test/electron/**/*.test.ts'];

/**
 * Node tests that replace a module for the whole file (`vi.mock`) or change the process's own
 * settings (its umask): run isolated. A test for it (test/build/test-projects.test.ts) finds any
 * other file that does so.
 */
export const MODULE_MOCKING_TESTS = [
  'test/electron/shell/display-window.test.ts',
  'test/electron/shell/electron-shell.test.ts',
  'test/electron/shell/health-shell.test.ts',
  'test/electron/shell/import-key-shell.test.ts',
  'test/electron/shell/report-pdf.test.ts',
  'test/electron/storage/file-modes.test.ts',
];

// Five projects: by where the code under test runs (node, its isolated files, renderer, e2e), and the house's checks.
export default defineConfig({
  test: {
    reporters: ['default', new SummaryLineReporter()],
    // Two files at once on a two-core till's CI: left unset, a run here used one worker.
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'node',
          environment: 'node',
          include: NODE_TESTS,
          exclude: [...NETWORK_NAMESPACE_TESTS, ...MODULE_MOCKING_TESTS],
          // One module graph a worker, not one a file: the files share no state but what they
          // set up and tear down themselves, and importing anew for every file was most of
          // the run (docs/tests.md).
          isolate: false,
          // No multicast or broadcast on the machine's own network (docs/tests.md).
          setupFiles: ['test/support/host-network-guard-setup.ts'],
        },
      },
      {
        test: {
          // Files that replace modules (vi.mock: Electron's API) or the process's own settings:
          // each in a module graph of its own, so the replacement reaches no other file.
          name: 'node-isolated',
          environment: 'node',
          include: MODULE_MOCKING_TESTS,
          setupFiles: ['test/support/host-network-guard-setup.ts'],
        },
      },
      {
        // The house's own checks (lint, layers, sizes, docs, packing) and the tests that need
        // hosts of their own (network namespaces, root): not for every save (npm run test:quick).
        test: {
          name: 'checks',
          environment: 'node',
          include: ['test/build/**/*.test.ts', ...NETWORK_NAMESPACE_TESTS],
          setupFiles: ['test/support/host-network-guard-setup.ts'],
        },
      },
      {
        plugins: [vue()],
        test: {
          name: 'renderer',
          environment: 'happy-dom',
          // As the node project's: each file's databases are its own (unique names), and a
          // global a file stubs it unstubs.
          isolate: false,
          include: ['test/renderer/**/*.test.ts'],
          setupFiles: ['fake-indexeddb/auto'],
        },
      },
      {
        test: {
          // Real headless Chromium against a real sandbox. Two files at once: each has its own
          // browser, shell, sandbox and ports (test/support/free-port.ts), and its LANs are
          // namespaces named by its process.
          name: 'e2e',
          environment: 'node',
          include: ['test/e2e/**/*.test.ts'],
          setupFiles: ['test/support/host-network-guard-setup.ts'],
          // The renderer built once for the run, not once a file (test/e2e/global-setup.ts).
          globalSetup: ['test/e2e/global-setup.ts'],
          fileParallelism: true,
          testTimeout: 60_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
