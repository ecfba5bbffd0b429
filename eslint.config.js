// Lint exists mainly for what tsc cannot see: floating and misused promises.
import tseslint from 'typescript-eslint';

export default tseslint.config(
  // What .gitignore leaves out, too: `npm test` lints beside vitest, whose bundle (.scratch-cli-<pid>/) comes
  // and goes during the walk (test/support/npm-test.ts).
  { ignores: ['node_modules/**', 'reports/**', 'dist/**', 'bin/**', 'eslint.config.js', '.scratch*/', 'test-artifacts/', 'tmp/'] },
  {
    files: ['**/*.ts'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      '@typescript-eslint/await-thenable': 'error',
    },
  },
);
