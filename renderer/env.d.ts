/// <reference types="vite/client" />
import type { TillApi } from '../common/contract';

declare global {
  interface Window {
    /** The bridge to the main process, built by the preload from the shared contract. */
    readonly till: TillApi;
  }
}

export {};
