// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import pluginVue from 'eslint-plugin-vue';
import eslintConfigPrettier from 'eslint-config-prettier/flat';
import globals from 'globals';
import vueI18n from '@intlify/eslint-plugin-vue-i18n';
import layers from './build/eslint-layers.js';

/** Static imports whose source names a folder, however many `../` lead to it. */
const folder = (name) => [`**/${name}`, `**/${name}/**`];

/** Dynamic `import('…')` is not seen by no-restricted-imports, so the same folders are refused here. */
const noDynamicImportOf = (names, message) => ({
  selector: `ImportExpression[source.value=/(^|\\/)(${names.join('|')})(\\/|$)/]`,
  message,
});

/**
 * Raw text in the renderer's templates: every word the till shows comes from the catalogues
 * (docs/languages.md). Left alone: key caps in <kbd> (printed on the keyboard, not translated),
 * <code>, and text of punctuation, arrows, digits and symbols only.
 */
export const NO_RAW_TEXT = {
  ignoreNodes: ['kbd', 'code'],
  ignorePattern: '^[\\s\\d\\p{P}\\p{S}]+$',
  attributes: {
    '/.+/': ['title', 'aria-label', 'placeholder', 'alt'],
    // The labelled field's own props (on <i18n-t>, `tag` is the element to render).
    '/^(TextField|text-field)$/': ['label', 'hint', 'tag'],
  },
};
/** What the whole renderer may not import: electron/, the bridge contract beyond its types, and sandbox/. */
const RENDERER_IMPORT_PATTERNS = [
  {
    group: [...folder('electron'), 'electron'],
    message:
      'The renderer runs in the browser: it imports nothing from electron/ (the bridge contract is common/contract.ts).',
  },
  {
    group: ['**/common/contract', '**/common/contract.ts'],
    allowTypeImports: true,
    message: 'The renderer may import common/contract.ts for its types only (`import type`): it calls window.till.',
  },
  { group: folder('sandbox'), message: 'The renderer never imports sandbox/.' },
];
const RENDERER_DYNAMIC_IMPORTS = noDynamicImportOf(
  ['electron', 'sandbox'],
  'The renderer never loads electron/ or sandbox/ code.',
);

/**
 * The layers as allow-lists (build/eslint-layers.js): each room (a folder, or a file that is a
 * layer of its own) names the rooms it may import; imports inside a room are free. A file in a
 * folder with no row is an error, and so is an import of one: a new folder gets a row first.
 * What each folder is for: docs/main-process.md, docs/offline.md, docs/screens.md.
 */

/**
 * The main process (docs/main-process.md): the shells wire everything (neither imports the
 * other); bridge/ is the composition root over the subsystems; updates/ reads policy/, which
 * sits on storage/; demo/ on service/ and storage/; links/, shop-ledger/, service/ and storage/
 * on validation/ and log/, which import only messages/, which imports no other folder.
 */
const BELOW_SUBSYSTEMS = ['validation', 'log', 'messages'];
const ELECTRON_SUBSYSTEMS = [
  'updates',
  'policy',
  'demo',
  'links',
  'shop-ledger',
  'service',
  'storage',
  'app-page',
  'display',
  'work-copy',
];
const ELECTRON_ROWS = {
  shell: ['bridge', ...ELECTRON_SUBSYSTEMS, ...BELOW_SUBSYSTEMS],
  'browser-shell': ['bridge', ...ELECTRON_SUBSYSTEMS, ...BELOW_SUBSYSTEMS],
  bridge: [...ELECTRON_SUBSYSTEMS, ...BELOW_SUBSYSTEMS],
  updates: ['policy', ...BELOW_SUBSYSTEMS],
  policy: ['storage', ...BELOW_SUBSYSTEMS],
  demo: ['service', 'storage', ...BELOW_SUBSYSTEMS],
  links: ['storage', 'app-page', ...BELOW_SUBSYSTEMS],
  'shop-ledger': ['storage', ...BELOW_SUBSYSTEMS],
  service: BELOW_SUBSYSTEMS,
  storage: BELOW_SUBSYSTEMS,
  'app-page': ['log', 'messages'],
  // The customer display's hub, its model check and its window's page (docs/screens.md).
  display: ['app-page', ...BELOW_SUBSYSTEMS],
  // The main process's copy of the outbox and the journal, in an append-only file (docs/offline.md).
  'work-copy': ['storage', ...BELOW_SUBSYSTEMS],
  validation: ['messages'],
  log: ['messages'],
  messages: [],
};

/**
 * The offline core (docs/offline.md): db/ at the bottom (schema.ts importing nothing, the
 * migrations nothing outside themselves), pacing/ and hashing/ beside it (importing nothing),
 * then connection/, search/, customers/, rewards/, cache/ (the customers and their rewards as
 * one front), outbox/ and refresh/; the files at its top wire them (counter-operations.ts with
 * its parts in counter/), and index.ts alone opens the database. Nothing in it imports the
 * renderer's i18n/ or lib/: the core speaks in reasons and codes, and the view layer words them.
 */
const OFFLINE_BELOW_TOP = [
  'db',
  'db/schema.ts',
  'pacing',
  'hashing',
  'sealing',
  'connection',
  'search',
  'customers',
  'rewards',
  'cache',
  'outbox',
  'refresh',
];
const OFFLINE_ROWS = {
  'db/schema.ts': [],
  'db/migrations': [],
  db: ['db/schema.ts', 'sealing'],
  'db/open.ts': ['db', 'db/schema.ts', 'db/migrations'],
  // How background work makes way for the cashier: their searches' rhythm, what a write costs.
  pacing: [],
  // A fast string hash, for the stored ids, the card serials and the refresh's page hashes.
  hashing: [],
  // The keys the core seals with, from the till's data key (Web Crypto to derive, noble to seal).
  sealing: [],
  connection: [],
  search: ['db', 'db/schema.ts'],
  customers: ['db', 'db/schema.ts', 'pacing', 'hashing', 'search'],
  rewards: ['db', 'db/schema.ts', 'search', 'customers'],
  cache: ['db', 'db/schema.ts', 'pacing', 'search', 'customers', 'rewards'],
  outbox: ['db', 'db/schema.ts', 'connection', 'search', 'customers', 'rewards', 'cache'],
  refresh: ['db', 'db/schema.ts', 'pacing', 'hashing', 'connection', 'search', 'customers', 'cache'],
  // The shift's and the shop's report: built from the outbox and the journal, asked for by other tills.
  'shift-report': ['db/schema.ts', 'connection'],
  // The counter's parts (customers found, rewards redeemed, customers written, the shop asked).
  counter: OFFLINE_BELOW_TOP,
  'counter-operations.ts': [...OFFLINE_BELOW_TOP, 'counter'],
  'background-work.ts': OFFLINE_BELOW_TOP,
  // A loyalty card's scan: the service's search filtered to the serial, else the cache's index.
  'card-lookup.ts': OFFLINE_BELOW_TOP,
  // The first start's pass that seals what an earlier version stored in clear.
  'sealing-pass.ts': OFFLINE_BELOW_TOP,
  'index.ts': [
    ...OFFLINE_BELOW_TOP,
    'db/open.ts',
    'db/migrations',
    'counter',
    'counter-operations.ts',
    'background-work.ts',
    'card-lookup.ts',
    'sealing-pass.ts',
    'shift-report',
  ],
};

/**
 * The renderer's top level (docs/screens.md): views over components over stores, which reach
 * the offline core through its facade (offline/index.ts) only; lib/ and i18n/ below them.
 */
const OFFLINE_FACADE = 'offline/index.ts';
const RENDERER_ROWS = {
  'main.ts': ['App.vue', 'styles.css', 'views', 'components', 'stores', 'lib', 'i18n'],
  'App.vue': ['views', 'shift-report', 'components', 'stores', 'lib', 'i18n'],
  views: ['components', 'stores', 'lib', 'i18n', 'vocabulary', OFFLINE_FACADE],
  // The end-of-shift and shop report, one feature: its screen, chart, tables, store and CSV.
  'shift-report': ['components', 'stores', 'lib', 'i18n', 'vocabulary', OFFLINE_FACADE],
  components: ['stores', 'lib', 'i18n', 'vocabulary', OFFLINE_FACADE],
  stores: ['lib', 'i18n', 'vocabulary', OFFLINE_FACADE],
  // The customer display's own page: a second entry, with none of the till's stores or views.
  display: ['styles.css', 'lib', 'i18n'],
  lib: ['i18n', 'vocabulary'],
  i18n: [],
  // The codes the offline core produces and the words read (verdicts, reasons, notes): types only.
  vocabulary: [],
  'env.d.ts': [],
  'shims-vue.d.ts': [],
  'styles.css': [],
};

/** Every row, keyed and listed by path from the repository's root. */
const under = (prefix, rows) =>
  Object.fromEntries(
    Object.entries(rows).map(([room, allowed]) => [`${prefix}/${room}`, allowed.map((to) => `${prefix}/${to}`)]),
  );
/** Every room of the offline core may also import the shared vocabulary, which imports nothing. */
const withVocabulary = (rows) =>
  Object.fromEntries(Object.entries(rows).map(([room, allowed]) => [room, [...allowed, 'renderer/vocabulary']]));
export const LAYER_ROWS = {
  ...under('electron', ELECTRON_ROWS),
  ...under('renderer', RENDERER_ROWS),
  ...withVocabulary(under('renderer/offline', OFFLINE_ROWS)),
};

/** The browser shell runs where Electron cannot: importing it there would fail on those very machines. */
const NO_ELECTRON_IN_BROWSER_SHELL = {
  group: ['electron'],
  message: 'electron/browser-shell runs in plain Node, where Electron is missing: it never imports electron.',
};

const SANDBOX_ONLY_FROM_DEMO =
  'Only electron/demo/demo-mode.ts may import sandbox/ (the demo service is loaded only for the demo).';

export default tseslint.config(
  { ignores: ['dist/', 'release/', 'out/', 'coverage/', 'node_modules/', '.tmp/', 'test/e2e/screenshots/'] },

  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...pluginVue.configs['flat/recommended'],
  {
    files: ['**/*.vue'],
    languageOptions: { parserOptions: { parser: tseslint.parser, extraFileExtensions: ['.vue'] } },
  },
  {
    languageOptions: { ecmaVersion: 'latest', sourceType: 'module' },
    rules: {
      // TypeScript checks names itself; no-undef only misreads type-only globals.
      'no-undef': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['electron/**', 'sandbox/**', 'build/**', 'test/**', '*.config.*'],
    languageOptions: { globals: globals.node },
  },
  { files: ['renderer/**'], languageOptions: { globals: globals.browser } },
  {
    // Tests read arbitrary JSON answers and poke at mocks; `any` there is the honest type.
    files: ['test/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },

  {
    files: ['renderer/**/*.vue'],
    plugins: { '@intlify/vue-i18n': vueI18n },
    rules: { '@intlify/vue-i18n/no-raw-text': ['error', NO_RAW_TEXT] },
  },

  // ── The layers (design.md: renderer / electron / sandbox / common) ──
  {
    files: ['renderer/**/*.{ts,vue}'],
    rules: {
      'no-restricted-imports': 'off',
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: RENDERER_IMPORT_PATTERNS }],
      'no-restricted-syntax': ['error', RENDERER_DYNAMIC_IMPORTS],
    },
  },
  {
    files: ['electron/**/*.ts'],
    ignores: ['electron/demo/demo-mode.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: folder('sandbox'), message: SANDBOX_ONLY_FROM_DEMO },
            { group: folder('renderer'), message: 'The main process never imports renderer/.' },
          ],
        },
      ],
      'no-restricted-syntax': ['error', noDynamicImportOf(['sandbox', 'renderer'], SANDBOX_ONLY_FROM_DEMO)],
    },
  },
  {
    files: ['electron/demo/demo-mode.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: folder('renderer'), message: 'The main process never imports renderer/.' }] },
      ],
    },
  },
  // ── Inside the main process, the renderer and the offline core: each room imports only its row ──
  {
    files: ['electron/**/*.ts', 'renderer/**/*.{ts,vue}'],
    plugins: { layers },
    rules: { 'layers/allowed-imports': ['error', { domains: ['electron', 'renderer'], rows: LAYER_ROWS }] },
  },
  {
    // A migration runs on tills long after it shipped: it carries the code it ran with
    // (migrations/frozen/) and imports nothing the app's code may change since.
    files: ['renderer/offline/db/migrations/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              // Not even the contract's types: the rows are as each version stored them.
              group: ['../*', '../**', 'electron'],
              message:
                'A migration imports only its own folder (migrations/frozen/ holds the code it ran with) and Dexie.',
            },
          ],
        },
      ],
    },
  },
  {
    // Sealing is keys and bytes alone (docs/offline.md): no database library, so the tables that
    // use it and the room itself cannot grow into each other.
    files: ['renderer/offline/sealing/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            ...RENDERER_IMPORT_PATTERNS,
            {
              group: ['dexie', 'dexie/*'],
              message: 'sealing/ is keys and bytes alone: it knows nothing of the database.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['electron/browser-shell/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            NO_ELECTRON_IN_BROWSER_SHELL,
            { group: folder('sandbox'), message: SANDBOX_ONLY_FROM_DEMO },
            { group: folder('renderer'), message: 'The main process never imports renderer/.' },
          ],
        },
      ],
    },
  },
  {
    // The sandbox stands for the real service: it shares no code with the app but the pure
    // folding of names (common/fold.ts), so that the two never drift apart.
    files: ['sandbox/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                ...folder('electron'),
                ...folder('renderer'),
                '**/common/*',
                '!**/common/fold',
                '!**/common/fold.ts',
              ],
              message: 'sandbox/ imports nothing of the app but common/fold.ts (it stands for the real service).',
            },
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        noDynamicImportOf(['electron', 'renderer', 'common'], 'sandbox/ imports nothing of the app.'),
      ],
    },
  },
  {
    // common/ is pure code both runtimes import: no app layer, no Node, no DOM.
    files: ['common/**/*.ts'],
    languageOptions: { globals: { ...globals.es2025 } },
    rules: {
      'no-undef': 'error',
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [...folder('electron'), ...folder('renderer'), ...folder('sandbox')],
              message: 'common/ imports no layer of the app.',
            },
            { group: ['node:*'], message: 'common/ uses no Node APIs.' },
          ],
          paths: [
            'fs',
            'path',
            'os',
            'crypto',
            'child_process',
            'http',
            'https',
            'net',
            'url',
            'util',
            'events',
            'stream',
            'buffer',
            'electron',
          ].map((name) => ({ name, message: 'common/ uses no Node or Electron APIs.' })),
        },
      ],
      'no-restricted-syntax': [
        'error',
        noDynamicImportOf(['electron', 'renderer', 'sandbox'], 'common/ imports no layer of the app.'),
      ],
    },
  },

  eslintConfigPrettier,
);
