// @ts-check
// One lint configuration for the server (src, test, bench, scripts) and the client (client/src).
// `npm run lint` runs it; `.ci/run` runs it before the tests.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { defineConfig } from 'eslint/config';
import reactHooks from 'eslint-plugin-react-hooks';
import { importX } from 'eslint-plugin-import-x';
import globals from 'globals';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// The server's layers (docs/architecture.md): infrastructure, then the credentials, then the global guards (access),
// then the features. Every other folder of src/ is a feature, so a new one is held by the zones from its first line.
const SERVER_INFRASTRUCTURE = [
  'shared',
  'config',
  'database',
  'logging',
  'metrics',
  'mail',
  'redis',
  'files',
  'lifecycle',
  'common',
  'openapi',
  'static',
];
const SERVER_LAYERS_ABOVE_INFRASTRUCTURE = ['credentials', 'access'];
const SERVER_FEATURES = readdirSync(new URL('./src', import.meta.url), { withFileTypes: true })
  .filter(
    (d) =>
      d.isDirectory() &&
      !SERVER_LAYERS_ABOVE_INFRASTRUCTURE.includes(d.name) &&
      !SERVER_INFRASTRUCTURE.includes(d.name),
  )
  .map((d) => d.name);
/**
 * A client feature reaches another feature only through its public entry (features/<f>/index.ts), or its light
 * entry (features/<f>/light.ts: what the login card may load before any component library).
 */
const FEATURE_ENTRY_ONLY = {
  regex: '^@/features/[^/]+/(?!light$).+',
  message: "Import another feature through its entry ('@/features/<f>' or '@/features/<f>/light'), not its internals.",
};
const SERVER_ROOT_FILES = ['app.module.ts', 'configure-app.ts', 'main.ts', 'serve.ts'].map((f) => `./src/${f}`);

export default defineConfig(
  {
    ignores: [
      'dist/**',
      'client/dist/**',
      '.test-build*/**',
      'test-results/**',
      'coverage/**',
      'node_modules/**',
      'data/**',
      '.openapi/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      '@typescript-eslint/no-explicit-any': 'error',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      // TypeScript itself refuses a real redeclaration; a const and a type of one name is the idiom for closed unions.
      'no-redeclare': 'off',
      'no-console': 'off',
    },
  },
  // Server, tests, benchmarks and scripts run on Node.
  {
    files: ['src/**/*.ts', 'test/**/*.ts', 'ormconfig.ts'],
    languageOptions: { globals: { ...globals.node, ...globals.jest } },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    languageOptions: { globals: { ...globals.node }, sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  { files: ['**/*.mjs', 'client/**/*.js'], languageOptions: { sourceType: 'module' } },
  // The server's layers: each imports only those below it, shared/ (also the client's) nothing else; a feature
  // imports another only through its index.ts. Loops between feature folders: scripts/check-layers.js.
  {
    files: ['src/**/*.ts'],
    // A spec composes layers to test one (a credentials spec opens sessions): the zones hold the product code.
    ignores: ['src/**/*.spec.ts'],
    plugins: { 'import-x': importX },
    settings: {
      // The files import-x parses to follow imports (no-cycle): without it, none of TypeScript's.
      'import-x/extensions': ['.ts', '.js'],
      'import-x/resolver-next': [importX.createNodeResolver({ extensions: ['.ts', '.js', '.json'] })],
    },
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: SERVER_INFRASTRUCTURE.filter((f) => f !== 'shared').map((f) => `./src/${f}`),
              from: [
                ...SERVER_FEATURES.map((f) => `./src/${f}`),
                './src/credentials',
                './src/access',
                ...SERVER_ROOT_FILES,
              ],
              message: 'Infrastructure never imports the credentials or a feature: move the shared part down.',
            },
            {
              target: './src/credentials',
              from: [...SERVER_FEATURES.map((f) => `./src/${f}`), './src/access', ...SERVER_ROOT_FILES],
              message: 'The credentials layer never imports a feature.',
            },
            {
              target: './src/access',
              from: SERVER_FEATURES.map((f) => `./src/${f}`),
              message: 'The access layer (the global guards) never imports a feature.',
            },
            {
              target: SERVER_FEATURES.map((f) => `./src/${f}`),
              from: './src/access',
              message: 'A feature never imports the access layer: a route states its rule with @Access.',
            },
            // A feature reaches another only through what that one makes public: its index.ts.
            ...SERVER_FEATURES.map((f) => ({
              target: SERVER_FEATURES.filter((g) => g !== f).map((g) => `./src/${g}`),
              from: `./src/${f}`,
              except: ['./index.ts'],
              message: `Import the ${f} feature through its entry ('../${f}'), not its files; add what you need to src/${f}/index.ts.`,
            })),
            {
              target: './src/shared',
              from: './src',
              except: ['./shared'],
              message: 'shared/ is plain data and rules the client also uses: it imports nothing else of the server.',
            },
          ],
        },
      ],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  // The client: browser globals, the React hooks rules, and the import boundaries.
  {
    files: ['client/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks, 'import-x': importX },
    // The resolver reads the client's tsconfig for its `@/` and `@shared/` paths; without the TypeScript extensions
    // import-x reads no .ts/.tsx module and no-cycle sees no import at all.
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/resolver-next': [
        importX.createNodeResolver({
          extensions: ['.ts', '.tsx', '.js', '.json'],
          tsconfig: { configFile: fileURLToPath(new URL('./client/tsconfig.json', import.meta.url)) },
        }),
      ],
    },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    // components/ and lib/ are below the features: they never import one.
    files: ['client/src/components/**/*.{ts,tsx}', 'client/src/lib/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@/features/*', '**/features/*'], message: 'components/ and lib/ never import a feature.' },
          ],
        },
      ],
    },
  },
  {
    // A feature reaches another feature only through its public entry (features/<f>/index.ts).
    files: ['client/src/features/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [FEATURE_ENTRY_ONLY],
        },
      ],
    },
  },
  {
    // The app composes the features (routes, layout, providers); a feature never reaches back into it. A feature's
    // tests may render it inside the app's provider and theme.
    files: ['client/src/features/**/*.{ts,tsx}'],
    ignores: ['client/src/features/**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            FEATURE_ENTRY_ONLY,
            { group: ['@/app/*', '**/app/*'], message: 'A feature never imports the app: the app composes it.' },
          ],
        },
      ],
    },
  },
);
