import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Why the web uses its own tooltip (apps/web/src/components/tooltip.tsx). */
const APP_TOOLTIP = "Use components/tooltip's Tooltip: it shows the same popup, and costs nothing until shown.";

export default tseslint.config(
  { ignores: ['**/dist/**', '**/dist-faults/**', '**/dist-topology/**', '**/node_modules/**', 'data/**', '**/drizzle/**', 'test-results/**', 'e2e/artifacts/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: { ...globals.node },
      parserOptions: {
        projectService: { allowDefaultProject: ['vitest.config.ts'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false, attributes: false } }],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      eqeqeq: ['error', 'smart'],
    },
  },
  {
    // Tenant scope in one place (docs/architecture.md "Module contract"): a company filter is
    // written by platform/db/tenant.ts's inTenant (or inTenantPrepared, sameTenant), never by hand.
    files: ['apps/server/src/**/*.ts'],
    ignores: ['apps/server/src/platform/db/tenant.ts', 'apps/server/src/**/*.test.ts', 'apps/server/src/test/**', 'apps/server/src/faults/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.name='eq'][arguments.0.property.name='companyId']",
          message: 'Write the company filter with inTenant(table, scope, ...conditions) from platform/db/tenant.ts.',
        },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { ...globals.node } },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: '@mui/material', importNames: ['Tooltip'], message: APP_TOOLTIP },
            { name: '@mui/material/Tooltip', message: APP_TOOLTIP },
          ],
        },
      ],
    },
  },
);
