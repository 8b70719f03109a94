import nextCoreWebVitals from "eslint-config-next/core-web-vitals";
import nextTypeScript from "eslint-config-next/typescript";
import { defineConfig, globalIgnores } from "eslint/config";

export default defineConfig([
  ...nextCoreWebVitals,
  ...nextTypeScript,
  globalIgnores([
    ".next/**",
    "node_modules/**",
    "next-env.d.ts",
    "widget/dist/**",
    // Generated from the API schema (npm run api:types).
    "lib/api/schema.d.ts",
  ]),
]);
