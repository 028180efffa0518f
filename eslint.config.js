// @ts-check
/**
 * Lint: the mistakes a reviewer misses (a promise nobody awaits, an async function where a
 * callback's result is ignored, an unused variable) rather than taste; the formatter
 * (prettier, .prettierrc.json) owns layout. Type-aware rules read tsconfig.json through the
 * project service, so every file tsc checks is linted with its types.
 */
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'dist/',
      'build/',
      'coverage/',
      'bench/.work/',
      'test/fixtures/',
      'drizzle/',
      'drizzle-pg/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['*.js', 'bin/*.js', 'drizzle-pg.config.ts'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      // tsc checks names (typescript-eslint's own advice: no-undef misreads types and globals).
      'no-undef': 'off',
      // Terminal escapes and control characters are what the views and input checks look for.
      'no-control-regex': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
    },
  },
  // Tests read JSON bodies whose shape is the assertion itself.
  { files: ['test/**'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },
  // bin/ is CommonJS on purpose: it compiles the bundle from V8's code cache (compile-cli.js).
  { files: ['bin/**'], rules: { '@typescript-eslint/no-require-imports': 'off' } },
);
