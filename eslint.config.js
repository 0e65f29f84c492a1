// ESLint flat config. The architecture's import rules live beside the code they guard:
// server/eslint.rules.js (rings, domain DAG) and client/eslint.rules.js (features never import
// each other). This file holds what every workspace shares.
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import jsxA11y from 'eslint-plugin-jsx-a11y-x';
import serverRules from './server/eslint.rules.js';
import clientRules from './client/eslint.rules.js';

export default tseslint.config(
  {
    ignores: ['**/node_modules/**', '**/dist/**', 'data/**', '.data/**', 'coverage/**', 'tests/e2e/screenshots/**', 'bench/out/**'],
  },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    languageOptions: { globals: { ...globals.node } },
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['server/tsconfig.json', 'client/tsconfig.json', 'shared/tsconfig.json', 'tests/tsconfig.json'],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // Folder cycles make layers meaningless; file cycles are the first step towards them.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    // Typed linting: a promise nobody awaits loses its rejection, and a union switch that misses a
    // member compiles silently. One program over every workspace (tsconfig.eslint.json): with the
    // four workspace tsconfigs, server/ and shared/ were type-checked three times over (the client
    // and tests reach them), 40% more lint CPU. Not projectService: bench/, scripts/ and
    // vitest.config.ts have no nearest tsconfig.json of their own.
    files: ['**/*.{ts,tsx,mts,cts}'],
    languageOptions: {
      parserOptions: {
        project: ['tsconfig.eslint.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
    },
  },
  {
    // Plain JS config and the hand-written .d.mts beside the build scripts are in no tsconfig.
    files: ['**/*.{js,mjs,cjs}', 'scripts/*.d.mts'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: ['client/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    files: ['client/**/*.tsx'],
    ...jsxA11y.configs.recommended,
  },
  {
    files: ['client/**/*.tsx'],
    rules: {
      // A radio card's text sits two spans deep inside its label (label > span > span > text).
      'jsx-a11y-x/label-has-associated-control': ['error', { depth: 3 }],
    },
  },
  ...serverRules,
  ...clientRules,
);
