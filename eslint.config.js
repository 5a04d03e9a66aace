// `npm run check`: type-aware lint rules on sources, tests and benchmarks' TypeScript.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/**", "node_modules/**", "coverage/**", "fixtures/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // Promises must be awaited or explicitly voided: a dropped one loses its error.
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: { arguments: false } }],
      // Responses of unknown shape are `unknown` on purpose and narrowed by hand.
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" },
      ],
      // Async functions that implement a Promise-returning interface (sinks, fakes) need no await.
      "@typescript-eslint/require-await": "off",
      // Commander hands option values over as `unknown`-typed strings; String() is the intended
      // conversion there, and every other value printed is a string or number already.
      "@typescript-eslint/no-base-to-string": "off",
    },
  },
  {
    // Tests read JSON answers by shape and assert on them; typing every answer would add
    // casts, not safety.
    files: ["test/**/*.ts"],
    rules: {
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-unsafe-return": "off",
      "@typescript-eslint/unbound-method": "off",
    },
  },
  {
    // Plain-JS scripts (launcher, benchmarks, bundling) are not part of the TypeScript project.
    files: ["**/*.mjs", "**/*.js"],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      globals: {
        process: "readonly",
        console: "readonly",
        URL: "readonly",
        setTimeout: "readonly",
        clearTimeout: "readonly",
        Buffer: "readonly",
        performance: "readonly",
        AbortController: "readonly",
        AbortSignal: "readonly",
        fetch: "readonly",
        TextDecoder: "readonly",
        setInterval: "readonly",
        clearInterval: "readonly",
      },
    },
  },
);
