import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { POST } from "./route";

function post(body: unknown, authorization?: string): Request {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (authorization !== undefined) headers.Authorization = authorization;
  return new Request("http://127.0.0.1:3000/api/revalidate", {
    method: "POST",
    headers,
    body: JSON.stringify(body),
  });
}

const body = { paths: ["/g/python/how-to-venv"], gurus: [] };

describe("POST /api/revalidate", () => {
  beforeEach(() => {
    process.env.UI_REVALIDATE_SECRET = "s3cret-shared-with-django";
  });
  afterEach(() => {
    delete process.env.UI_REVALIDATE_SECRET;
  });

  it("refuses a wrong secret, a missing one and another scheme", async () => {
    for (const authorization of ["Bearer wrong", undefined, "s3cret-shared-with-django"]) {
      const response = await POST(post(body, authorization));
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ code: "unauthorized" });
    }
  });

  it("refuses everyone while no secret is configured", async () => {
    process.env.UI_REVALIDATE_SECRET = "";
    expect((await POST(post(body, "Bearer "))).status).toBe(401);
  });

  it("refuses paths that are not question pages, with the right secret", async () => {
    const auth = "Bearer s3cret-shared-with-django";
    for (const bad of [{ paths: ["/console"] }, { paths: "/g/a/b" }, { gurus: ["../x"] }, null]) {
      expect((await POST(post(bad, auth))).status).toBe(400);
    }
  });
});
