// @ts-check
// ESLint flat config: `npm run lint` (eslint . --max-warnings 0). Formatting is Prettier's job (`npm run format`):
// eslint-config-prettier, last, switches off every rule that would fight it.
import eslint from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import prettier from 'eslint-config-prettier/flat';
import jest from 'eslint-plugin-jest';
import tseslint from 'typescript-eslint';

export default defineConfig(
  globalIgnores([
    'cdk.out/',
    '.data/',
    'coverage/',
    'bench/.out/',
    'bench/out/',
    // written by openapi-typescript, compared byte for byte by test/contract/typed-client.test.ts
    'test/contract/generated/',
    // written by openapi-typescript (npm run console:types), checked by test/console/page-build.test.ts
    'console/api/schema.ts',
  ]),

  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },

  eslint.configs.recommended,
  tseslint.configs.recommended,

  {
    name: 'project/typescript',
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // Type-aware, chosen for catching real bugs (lost rejections, async callbacks where nothing awaits them)
      // at a negligible cost over the one type-checked program every type-aware rule shares.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/only-throw-error': 'error',
      '@typescript-eslint/return-await': ['error', 'in-try-catch'],
      // The code's style: inline `type` specifiers (import { x, type Y }); `typeof import('m')` stays allowed for
      // the lazy require() calls that carry an eslint-disable for no-require-imports.
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true, argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' }],
    },
  },

  {
    name: 'project/runtime-code',
    // Lambda and CDK code logs through the Powertools logger (structured, checked by test/hygiene), never console.
    files: ['functions/**/*.ts', 'shared/**/*.ts', 'lib/**/*.ts', 'bin/**/*.ts'],
    rules: { 'no-console': 'error' },
  },

  {
    name: 'project/commonjs',
    files: ['**/*.js', '**/*.cjs'],
    // jest.config.js and the jest reporter (test/support/timing-reporter.js) are plain Node CommonJS
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', module: 'writable', process: 'readonly', __dirname: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },

  {
    name: 'project/tests',
    files: ['test/**/*.ts'],
    extends: [jest.configs['flat/recommended']],
    rules: {
      'jest/no-focused-tests': 'error',
      'jest/no-disabled-tests': 'error',
      'jest/no-commented-out-tests': 'error',
      // CDK assertions (s.template.hasResourceProperties(...)) and the suites' expect* helpers assert too.
      'jest/expect-expect': ['error', { assertFunctionNames: ['expect', 'expect*', '*.template.*'] }],
      // Table-driven tests branch on the row (if (route.notImplemented) expect(...)), on purpose.
      'jest/no-conditional-expect': 'off',
      // jest.doMock / jest.isolateModules need require() after the mock is registered: that is how Jest loads a mocked module.
      '@typescript-eslint/no-require-imports': 'off',
      // Set-up checks inside beforeAll (and in fault-matrix rows called from tests) are deliberate.
      'jest/no-standalone-expect': 'off',
      // Tests read JSON bodies and CloudFormation templates: `any` there is the honest type.
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },

  {
    name: 'project/browser-tests',
    // CI failed once on a page.waitForFunction in a console test: its polling evaluates the predicate with eval
    // in the page, which the console's CSP (no unsafe-eval) refuses, so it can never become true.
    files: ['test/browser/**/*.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          property: 'waitForFunction',
          message: "The console's CSP refuses the eval of waitForFunction's polling: wait with until(page, expression) from test/browser/support.ts.",
        },
      ],
    },
  },

  prettier,
);
