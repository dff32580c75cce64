// @ts-check
// One lint configuration for the server (src, test, bench, scripts) and the client (client/src).
// `npm run lint` runs it; `.ci/run` runs it before the tests.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { defineConfig } from 'eslint/config';
import reactHooks from 'eslint-plugin-react-hooks';
import { importX } from 'eslint-plugin-import-x';
import globals from 'globals';

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
  // The client: browser globals, the React hooks rules, and the import boundaries.
  {
    files: ['client/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks, 'import-x': importX },
    rules: {
      ...reactHooks.configs.recommended.rules,
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
          patterns: [
            {
              regex: '^@/features/[^/]+/.+',
              message: "Import another feature through its entry ('@/features/<f>'), not its internals.",
            },
          ],
        },
      ],
    },
  },
);
