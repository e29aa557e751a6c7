import { defineConfig } from 'vite';
import vue from '@vitejs/plugin-vue';
import { fileURLToPath } from 'node:url';

// The renderer: built into dist/renderer and loaded by the main process from its own
// app:// protocol (never from a dev server in production).
export default defineConfig({
  root: fileURLToPath(new URL('./renderer', import.meta.url)),
  base: './',
  plugins: [vue()],
  // vue-i18n's bundler flags: Composition API only (no legacy API code shipped), no devtools.
  define: {
    __VUE_I18N_FULL_INSTALL__: true,
    __VUE_I18N_LEGACY_API__: false,
    __INTLIFY_PROD_DEVTOOLS__: false,
  },
  build: {
    outDir: fileURLToPath(new URL('./dist/renderer', import.meta.url)),
    emptyOutDir: true,
    target: 'chrome130',
    sourcemap: false,
    // Two pages: the till's, and the customer display's (docs/screens.md#the-customer-display).
    rollupOptions: {
      input: {
        index: fileURLToPath(new URL('./renderer/index.html', import.meta.url)),
        display: fileURLToPath(new URL('./renderer/display.html', import.meta.url)),
      },
    },
  },
});
