import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  // .jobs/: what the tool writes into a project (a clone after the README's tour); ESLint reads no ignore file.
  { ignores: ['dist/', 'node_modules/', 'src/core/generated/', 'coverage/', 'bench/.work/', '**/.jobs/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // The entry point is CommonJS on purpose (see bin/jobs.js).
    files: ['bin/**/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', __dirname: 'readonly', module: 'writable' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        Buffer: 'readonly',
        AbortController: 'readonly',
        fetch: 'readonly',
        TextDecoder: 'readonly',
        performance: 'readonly',
        setImmediate: 'readonly',
        structuredClone: 'readonly',
        AbortSignal: 'readonly',
        Response: 'readonly',
        Headers: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-control-regex': 'off',
    },
  },
  {
    // Every item of a spread becomes an argument on the stack: a few hundred thousand (events,
    // adverts, a service's error tree) throw "Maximum call stack size exceeded". The completion
    // scripts are built from the CLI's own short, fixed lists.
    files: ['src/**/*.ts'],
    ignores: ['src/cli/completion/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'CallExpression[callee.property.name=/^(push|unshift|splice)$/] > SpreadElement',
          message: 'spreading an array into call arguments overflows the stack on large inputs; use a loop or concat',
        },
      ],
    },
  },
);
