import { fileURLToPath } from "node:url";

import { defineConfig } from "vitest/config";

// Unit tests of the UI's plain modules (parsers, renderers, wording); pages and flows are
// covered by the browser tests in tests/browser/.
export default defineConfig({
  resolve: { alias: { "@": fileURLToPath(new URL(".", import.meta.url)) } },
  test: { include: ["**/*.test.ts"], exclude: ["node_modules/**", ".next/**"] },
});
