// @ts-check
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: ['**/node_modules/', '**/dist/', 'data/', 'test-results/', 'playwright-report/', 'tests/e2e/screenshots/'],
  },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        // Each file is checked with the tsconfig that includes it (shared, server, client, tests); the
        // configuration files at the root, which no project includes, get the base options.
        projectService: { allowDefaultProject: ['*.js', 'vitest.config.ts'], defaultProject: 'tsconfig.base.json' },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-base-to-string': [
        'error',
        // Yjs' shared types print themselves (text, or XML) though their typings do not declare toString.
        { ignoredTypeNames: ['Error', 'RegExp', 'URL', 'URLSearchParams', 'YText', 'YXmlFragment', 'YXmlElement'] },
      ],
      // tsc reports unused locals and parameters already (noUnusedLocals, noUnusedParameters in tsconfig.base.json).
      '@typescript-eslint/no-unused-vars': 'off',
      // Callback props, hook results and services are typed with method syntax (`onClose(): void`) and are
      // plain functions that never use `this`: the rule flagged every destructuring of them.
      '@typescript-eslint/unbound-method': 'off',
      // `async` without `await` is how a function meets an interface that wants a promise (Fastify
      // handlers, mailers and other services, test fakes, no-op closers), and it turns a throw into a rejection.
      '@typescript-eslint/require-await': 'off',
      // Every control character in a pattern here is deliberate: what cannot be stored, printed or read back
      // is refused or stripped.
      'no-control-regex': 'off',
    },
  },
  {
    files: ['server/**', 'shared/**', 'tests/**', '*.{js,ts}'],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['client/**'],
    languageOptions: { globals: globals.browser },
  },
  {
    files: ['client/src/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat.recommended,
  },
  {
    files: ['client/src/**/*.{ts,tsx}'],
    rules: {
      // A missing dependency is a stale value waiting to happen: an error, unless a comment says why not.
      'react-hooks/exhaustive-deps': 'error',
      // Checks from the React Compiler that say where it could not memoize a component. The project does not
      // compile with it, and these flagged only deliberate patterns:
      // - refs: a ref holding the latest callback, written during render; and any object that carries a ref
      //   (useFormSubmit's result) made every field of it count as one;
      // - set-state-in-effect: state reset in an effect when a key changes (the path, the search, the file);
      // - immutability: a note session (an external store) takes its event handlers as properties;
      // - preserve-manual-memoization, incompatible-library, unsupported-syntax: only what the compiler can compile.
      // The compiler's other checks (purity, set-state-in-render, static-components...) stay on.
      'react-hooks/refs': 'off',
      'react-hooks/set-state-in-effect': 'off',
      'react-hooks/immutability': 'off',
      'react-hooks/preserve-manual-memoization': 'off',
      'react-hooks/incompatible-library': 'off',
      'react-hooks/unsupported-syntax': 'off',
    },
  },
  {
    files: ['client/src/**/*.tsx'],
    ...jsxA11y.flatConfigs.recommended,
  },
  {
    // A test checks the shape of untyped JSON by asserting on it, and vitest's asymmetric matchers
    // (`expect.any(String)`) are typed `any`: the unsafe-any rules only repeated what the assertions check.
    files: ['**/*.test.ts', 'tests/**'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
    },
  },
  {
    // Plain JavaScript (this file, the copy worker) has no types to check against.
    files: ['**/*.{js,mjs,cjs}'],
    ...tseslint.configs.disableTypeChecked,
  },
  prettier,
);
