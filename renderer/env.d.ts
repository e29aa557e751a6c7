/// <reference types="vite/client" />
import type { TillApi } from '../electron/contract';

declare global {
  interface Window {
    /** The bridge to the main process, built by the preload from the shared contract. */
    readonly till: TillApi;
  }
}

declare module '*.vue' {
  import type { DefineComponent } from 'vue';
  const component: DefineComponent<object, object, unknown>;
  export default component;
}

export {};
