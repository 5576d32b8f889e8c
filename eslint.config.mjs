import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.data/**', 'eslint.config.mjs'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  {
    // The console (web/console): plain ES modules for the browser, type-checked by web/console/tsconfig.json
    // (checkJs), linted with the same type-aware rules as the server's code.
    files: ['web/console/**/*.js'],
    languageOptions: { sourceType: 'module', parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  {
    // Workflow code runs in Temporal's deterministic sandbox: no Node built-ins, no client/worker/activity SDKs.
    // The three folders the workflow bundle loads from: the workflows, the pure billing domain and the contracts both
    // Temporal sides share (test/unit/architecture.test.ts checks that these three cover every module it loads).
    files: ['src/workflows/**/*.ts', 'src/billing/**/*.ts', 'src/contracts/workflows/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                'node:*',
                'fs',
                'path',
                'os',
                'crypto',
                'http',
                'https',
                'net',
                'child_process',
                'process',
                'stream',
                'events',
                'timers',
              ],
              message: 'Workflow code must stay deterministic: no Node built-ins.',
            },
            {
              group: ['@temporalio/client', '@temporalio/worker', '@temporalio/activity', 'mongodb', 'koa'],
              message: 'Workflows may not do I/O; import activities with `import type`.',
            },
          ],
        },
      ],
    },
  },
);
