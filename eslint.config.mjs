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

// The server's groups, lowest first (docs/architecture.md): each imports only those below it and shared/. Inside
// identity/, credentials/ (the checks of secrets and sessions) and access/ (the global guards) are layers below its
// features. Every folder of a group is a unit; a new one is held by the zones from its first line.
const SERVER_GROUPS = ['platform', 'identity', 'administration', 'portal'];
const unitsOf = (group) =>
  readdirSync(new URL(`./src/${group}`, import.meta.url), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => `./src/${group}/${d.name}`);
const UNITS = Object.fromEntries(SERVER_GROUPS.map((g) => [g, unitsOf(g)]));
const CREDENTIALS = './src/identity/credentials';
const ACCESS = './src/identity/access';
const SERVER_FEATURES = [...UNITS.identity, ...UNITS.administration, ...UNITS.portal].filter(
  (u) => u !== CREDENTIALS && u !== ACCESS,
);
// Units the others reach only through their entry (index.ts): the features, and the audit trail every group writes.
const ENTRY_ONLY_UNITS = [...SERVER_FEATURES, './src/platform/audit'];
const SERVER_APP = ['./src/app', './src/main.ts'];
/**
 * A client feature reaches another feature only through its public entry (features/<group>/<f>/index.ts), or its
 * light entry (features/<group>/<f>/light.ts: what the login card may load before any component library).
 */
const FEATURE_ENTRY_ONLY = {
  regex: '^@/features/[^/]+/[^/]+/(?!light$).+',
  message:
    "Import another feature through its entry ('@/features/<group>/<f>' or '@/features/<group>/<f>/light'), not its internals.",
};

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
              target: UNITS.platform,
              from: [...UNITS.identity, ...UNITS.administration, ...UNITS.portal, ...SERVER_APP],
              message: 'The platform never imports identity, administration or the portal: move the shared part down.',
            },
            {
              target: UNITS.identity,
              from: [...UNITS.administration, ...UNITS.portal, ...SERVER_APP],
              message: 'Identity never imports administration or the portal: move the shared part down.',
            },
            {
              target: UNITS.administration,
              from: [...UNITS.portal, ...SERVER_APP],
              message: "Administration never imports the portal's pages: move the shared part down.",
            },
            {
              target: UNITS.portal,
              from: SERVER_APP,
              message: 'A feature never imports the app: the app composes the features.',
            },
            {
              target: CREDENTIALS,
              from: [...SERVER_FEATURES, ACCESS],
              message: 'The credentials layer never imports a feature.',
            },
            {
              target: ACCESS,
              from: SERVER_FEATURES,
              message: 'The access layer (the global guards) never imports a feature.',
            },
            {
              target: SERVER_FEATURES,
              from: ACCESS,
              message: 'A feature never imports the access layer: a route states its rule with @Access.',
            },
            // A feature reaches another only through what that one makes public: its index.ts.
            ...ENTRY_ONLY_UNITS.map((u) => ({
              target: [...new Set([...ENTRY_ONLY_UNITS, ...UNITS.platform])].filter((g) => g !== u),
              from: u,
              except: ['./index.ts'],
              message: `Import ${u.slice('./src/'.length)} through its entry (its folder), not its files; add what you need to its index.ts.`,
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
