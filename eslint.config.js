// @ts-check
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

const deepImportBan = {
  patterns: [
    {
      group: ['@relvo-labs/*/src', '@relvo-labs/*/src/*', '@relvo-labs/*/dist/*'],
      message: 'Import a package through its public entry, not a deep path.',
    },
    {
      group: ['**/packages/*/src', '**/packages/*/src/*', '**/packages/*/dist/*'],
      message: 'Cross-package relative imports are forbidden; use the package name.',
    },
  ],
};

// src/ builds every AgentError through codexError, so providerCode stays a typed union
const agentErrorThroughCodexError = {
  name: '@relvo-labs/agent-provider',
  importNames: ['agentError'],
  message: 'Build an AgentError with codexError (src/shared/codex-error.ts).',
};

export default defineConfig(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'fixtures/**',
      'packages/agent-provider/schemas/**',
      'coverage/**',
      '**/*.cjs',
      // a test run's scratch folders (bundled test programs, doc blocks), removed after it
      '.vitest-*/**',
    ],
  },
  js.configs.recommended,
  tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: {
          allowDefaultProject: [
            'eslint.config.js',
            'bin/*.js',
            'packages/cli/bin/*.js',
            'scripts/*.mjs',
          ],
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      'no-restricted-syntax': [
        'error',
        { selector: 'TSEnumDeclaration', message: 'No TS enums: use a const array and a union.' },
      ],
      'no-restricted-imports': ['error', deepImportBan],
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  {
    // the published CLI bundles the testing kit through one module instead of loading it
    files: ['packages/cli/src/**/*.ts'],
    ignores: ['packages/cli/src/kit.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          ...deepImportBan,
          paths: [
            {
              name: '@relvo-labs/agent-provider-codex/testing',
              message: 'Import it through packages/cli/src/kit.ts, which the build bundles.',
            },
          ],
        },
      ],
    },
  },
  {
    // providerCode is a typed union only through codexError
    files: ['src/**/*.ts'],
    ignores: ['src/shared/codex-error.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          ...deepImportBan,
          paths: [agentErrorThroughCodexError],
        },
      ],
    },
  },
  {
    // a session receives what it needs; it never reads the provider's options
    files: ['src/session/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          ...deepImportBan,
          paths: [agentErrorThroughCodexError],
          patterns: [
            ...deepImportBan.patterns,
            {
              group: ['**/options.js'],
              message: 'src/session never imports the provider options.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/test/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-empty-function': 'off',
    },
  },
);
