// Vitest setup file (vitest.config.ts) and `--import` for the test's child processes: every
// test process refuses multicast and broadcast on the machine's own network.
import { guardHostNetwork } from './host-network-guard';

guardHostNetwork();
