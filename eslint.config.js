// ESLint flat config. The architecture's import rules live beside the code they guard:
// server/eslint.rules.js (rings, domain DAG) and client/eslint.rules.js (features never import
// each other). This file holds what every workspace shares.
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import globals from 'globals';
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
  ...serverRules,
  ...clientRules,
);
