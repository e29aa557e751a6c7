import { defineConfig } from 'vitest/config';
import vue from '@vitejs/plugin-vue';
import SummaryLineReporter from './test/summary-reporter';

/** Tests that make network namespaces (hosts of their own, mDNS): root and iproute2 (docs/tests.md). */
const NETWORK_NAMESPACE_TESTS = [
  'test/electron/shop-ledger/discovery.test.ts',
  'test/electron/shop-ledger/multi-host.test.ts',
];

// Four projects: by where the code under test runs (node, renderer, e2e), and the house's checks.
export default defineConfig({
  test: {
    reporters: ['default', new SummaryLineReporter()],
    projects: [
      {
        test: {
          name: 'node',
          environment: 'node',
          include: ['test/common/**/*.test.ts', 'test/sandbox/**/*.test.ts', 'test/electron/**/*.test.ts'],
          exclude: NETWORK_NAMESPACE_TESTS,
          // No multicast or broadcast on the machine's own network (docs/tests.md).
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
