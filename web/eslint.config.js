// ESLint flat config for the web client.
//
// Boundaries: imports flow lib/components -> features -> app. They are enforced with
// import-x's `no-restricted-paths` zones rather than eslint-plugin-boundaries: the rules are
// plain folder-to-folder bans that zones state in a few lines, with no element types or
// capture patterns to keep in step with the layout, and `no-cycle` comes from the same plugin
// and the same TypeScript resolver. One zone per feature folder (read from disk, so a new
// feature is covered without touching this file) keeps features from importing each other;
// what two features need belongs in src/components (UI) or src/lib (data, hooks, helpers).
// src/test holds the helpers every test shares, so it stays below the features too.
//
// TypeScript: typescript-eslint's recommended rules for every file, plus the type-aware rules
// that catch real bugs in this code base (unawaited or misused promises) and cost one
// TypeScript program; the full recommendedTypeChecked set is not worth its noise here.
// React: the hooks rules (rules-of-hooks, exhaustive-deps and the React Compiler checks).
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const features = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

const boundaries = [
  ...features.map((feature) => ({
    target: `./src/features/${feature}`,
    from: './src/features',
    except: [`./${feature}`],
    message: 'A feature never imports another feature: move what both need to src/components or src/lib.',
  })),
  {
    target: ['./src/components', './src/lib', './src/test'],
    from: ['./src/features', './src/app'],
    message: 'Shared code (src/components, src/lib, src/test) never imports a feature or the app.',
  },
  {
    target: './src/features',
    from: './src/app',
    message: 'Features never import the app: the app composes the features.',
  },
];

// Every finding is an error, so plain `eslint .` (npm run lint) fails on it in CI.
const asError = (level) => (level === 'warn' || level === 1 ? 'error' : level);
const hooks = reactHooks.configs.flat['recommended-latest'];

export default defineConfig(
  globalIgnores(['dist/', 'src/generated/', 'e2e/artifacts/', 'coverage/']),
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // react-router's navigate() promise never rejects: navigation errors go to the route's errorElement.
      '@typescript-eslint/no-floating-promises': [
        'error',
        { allowForKnownSafeCalls: [{ from: 'package', package: 'react-router', name: 'NavigateFunction' }] },
      ],
      // JSX handlers such as onClick={() => navigate(href)} hand that same promise back to React.
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/await-thenable': 'error',
    },
  },
  {
    ...hooks,
    files: ['src/**/*.{ts,tsx}'],
    languageOptions: { globals: globals.browser },
    rules: Object.fromEntries(Object.entries(hooks.rules).map(([rule, level]) => [rule, asError(level)])),
  },
  {
    files: ['**/*.{ts,tsx,js}'],
    plugins: { 'import-x': importX },
    settings: {
      // no-cycle follows only the files it can parse: the TypeScript ones included.
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': ['error', { zones: boundaries }],
      'import-x/no-duplicates': 'error',
    },
  },
  {
    files: ['*.{js,ts}', 'e2e/**/*.ts', 'scripts/**/*.mjs'],
    languageOptions: { globals: globals.node },
  },
);
