import js from "@eslint/js";
import tseslint from "typescript-eslint";
import nextPlugin from "@next/eslint-plugin-next";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";

const TS = ["**/*.ts", "**/*.tsx"];

export default tseslint.config(
  {
    ignores: ["node_modules/", ".next/", ".next-*/", "lib/generated/", ".data/", "test-results/", "playwright-report/", "e2e/artifacts/", "next-env.d.ts", "bench-results/"],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked.map((c) => ({ ...c, files: TS })),
  {
    files: TS,
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    plugins: { "@next/next": nextPlugin, "react-hooks": reactHooks },
    rules: {
      ...nextPlugin.configs.recommended.rules,
      ...nextPlugin.configs["core-web-vitals"].rules,
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "warn",
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: { attributes: false } }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      // Domain code reads configuration through lib/env.ts only.
      "no-restricted-properties": ["error", { object: "process", property: "env", message: "Read configuration through lib/env.ts" }],
    },
  },
  {
    // Tests poke at JSON responses; strict any-tracking there costs more than it catches.
    files: ["test/**", "e2e/**", "**/*.test.ts"],
    rules: {
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-unsafe-return": "off",
      "@typescript-eslint/no-explicit-any": "off",
    },
  },
  {
    files: ["**/*.mjs"],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    // Where reading the environment is the point: the config module, boot hooks, tooling and tests.
    files: ["lib/env.ts", "instrumentation.ts", "prisma.config.ts", "test/**", "e2e/**", "playwright.config.ts", "vitest.config.ts", "scripts/**"],
    rules: { "no-restricted-properties": "off" },
  },
);
