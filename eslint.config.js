// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import pluginVue from 'eslint-plugin-vue';
import eslintConfigPrettier from 'eslint-config-prettier/flat';
import globals from 'globals';
import vueI18n from '@intlify/eslint-plugin-vue-i18n';

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

const OFFLINE_FACADE_ONLY =
  'Outside renderer/offline/, the renderer speaks to the offline core through its facade (renderer/offline/index.ts) only.';

/**
 * Inside the offline core (docs/offline.md), each subsystem imports only those below it:
 * db/ at the bottom (schema.ts importing nothing), then connection/, search/, customers/,
 * rewards/, outbox/ and refresh/; index.ts wires them. Opening the database and its
 * migrations are for index.ts alone.
 */
const OFFLINE_LAYERS = {
  'db/schema.ts': ['db', 'connection', 'search', 'customers', 'rewards', 'outbox', 'refresh'],
  db: ['connection', 'search', 'customers', 'rewards', 'outbox', 'refresh'],
  connection: ['db', 'search', 'customers', 'rewards', 'outbox', 'refresh'],
  search: ['connection', 'customers', 'rewards', 'outbox', 'refresh'],
  customers: ['connection', 'rewards', 'outbox', 'refresh'],
  rewards: ['connection', 'outbox', 'refresh'],
  outbox: ['refresh'],
  refresh: ['rewards', 'outbox'],
};
/** Opening the database (and so its migrations) is the wiring's job, not a subsystem's. */
const OPENS_THE_DATABASE = ['**/db/open', '**/db/open.ts', '**/db/migrations', '**/db/migrations/**'];

/**
 * The main process's folders (docs/main-process.md): shell/ touches Electron and wires the
 * rest; browser-shell/ wires the same rest in plain Node for the browser (neither imports the
 * other); bridge/ is the handler table over service/, storage/, links/, demo/ and shop-ledger/;
 * those sit on validation/ and log/, which import only messages/, which imports no other folder.
 * shop-ledger/ (the tills of a shop, docs/shop-ledger.md) is read by the shells and the bridge
 * only, and reads nothing beside storage/ and what lies below it.
 */
const SHELLS = ['shell', 'browser-shell'];
/**
 * policy/ (the organisation's policy over the settings) sits on storage/; updates/ (when the
 * till updates itself) reads the policy's `updates`; only the shells and the bridge read them.
 */
const MANAGEMENT = ['policy', 'updates'];
const ELECTRON_LAYERS = {
  shell: ['browser-shell'],
  'browser-shell': ['shell'],
  messages: [
    ...SHELLS,
    'bridge',
    'service',
    'storage',
    'links',
    'demo',
    'app-page',
    'shop-ledger',
    'validation',
    'log',
    ...MANAGEMENT,
  ],
  log: [
    ...SHELLS,
    'bridge',
    'service',
    'storage',
    'links',
    'demo',
    'app-page',
    'shop-ledger',
    'validation',
    ...MANAGEMENT,
  ],
  validation: [
    ...SHELLS,
    'bridge',
    'service',
    'storage',
    'links',
    'demo',
    'app-page',
    'shop-ledger',
    'log',
    ...MANAGEMENT,
  ],
  'app-page': [...SHELLS, 'bridge', 'service', 'storage', 'links', 'demo', 'shop-ledger', 'validation', ...MANAGEMENT],
  service: [...SHELLS, 'bridge', 'storage', 'links', 'demo', 'app-page', 'shop-ledger', ...MANAGEMENT],
  storage: [...SHELLS, 'bridge', 'service', 'links', 'demo', 'app-page', 'shop-ledger', ...MANAGEMENT],
  links: [...SHELLS, 'bridge', 'service', 'demo', 'app-page', 'shop-ledger', ...MANAGEMENT],
  demo: [...SHELLS, 'bridge', 'links', 'app-page', 'shop-ledger', ...MANAGEMENT],
  'shop-ledger': [...SHELLS, 'bridge', 'service', 'links', 'demo', 'app-page', ...MANAGEMENT],
  policy: [...SHELLS, 'bridge', 'service', 'links', 'demo', 'app-page', 'shop-ledger', 'updates'],
  updates: [...SHELLS, 'bridge', 'service', 'storage', 'links', 'demo', 'app-page', 'shop-ledger'],
  bridge: SHELLS,
  // The customer display's hub and model check (docs/screens.md#the-customer-display).
  display: [...SHELLS, 'bridge', 'service', 'storage', 'links', 'demo', 'app-page', 'shop-ledger', ...MANAGEMENT],
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
    // Outside the offline core (views, components, stores, lib, i18n) the renderer sees its
    // operations, never its database, cache, outbox or replayer; types come re-exported through
    // the facade. Options of a rule are replaced, not merged, by a later block: the renderer's own
    // come along.
    files: ['renderer/**/*.{ts,vue}'],
    ignores: ['renderer/offline/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            ...RENDERER_IMPORT_PATTERNS,
            {
              group: ['**/offline/*', '**/offline/*/**', '!**/offline/index', '!**/offline/index.ts'],
              message: OFFLINE_FACADE_ONLY,
            },
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        RENDERER_DYNAMIC_IMPORTS,
        {
          selector: 'ImportExpression[source.value=/(^|\\/)offline\\/(?!index(\\.ts)?$)/]',
          message: OFFLINE_FACADE_ONLY,
        },
      ],
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
  // ── Inside the offline core and the main process: each folder imports only those below it ──
  ...Object.entries(OFFLINE_LAYERS).map(([part, below]) => {
    const own = part.endsWith('.ts') ? [`renderer/offline/${part}`] : [`renderer/offline/${part}/**/*.ts`];
    const opener = part === 'db' ? [] : [{ group: OPENS_THE_DATABASE, message: 'Only index.ts opens the database.' }];
    return {
      files: own,
      ignores: part === 'db' ? ['renderer/offline/db/schema.ts', 'renderer/offline/db/migrations/**'] : [],
      rules: {
        '@typescript-eslint/no-restricted-imports': [
          'error',
          {
            patterns: [
              ...RENDERER_IMPORT_PATTERNS,
              ...opener,
              {
                // schema.ts is the bottom: not even its neighbours in db/.
                group: [...(part === 'db/schema.ts' ? ['./*'] : []), ...below.flatMap(folder)],
                message: `renderer/offline/${part} does not import ${below.join(', ')} (docs/offline.md).`,
              },
            ],
          },
        ],
      },
    };
  }),
  ...Object.entries(ELECTRON_LAYERS).map(([part, below]) => ({
    files: [`electron/${part}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...(part === 'demo' ? [] : [{ group: folder('sandbox'), message: SANDBOX_ONLY_FROM_DEMO }]),
            ...(part === 'browser-shell' ? [NO_ELECTRON_IN_BROWSER_SHELL] : []),
            { group: folder('renderer'), message: 'The main process never imports renderer/.' },
            {
              group: below.flatMap(folder),
              message: `electron/${part} does not import ${below.join(', ')} (docs/main-process.md).`,
            },
          ],
        },
      ],
    },
  })),
  {
    // The sandbox stands for the real service: it shares no code with the app, not even common/.
    files: ['sandbox/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [...folder('electron'), ...folder('renderer'), ...folder('common')],
              message: 'sandbox/ imports nothing of the app (it stands for the real service).',
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
