import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { askStream } from "@/lib/answers/client";

import { ApiError, apiJson, apiRequest, getJson } from "./client";

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

// A real HTTP server on 127.0.0.1 that answers each path the way Django (or a proxy) would.
const routes: Record<string, Handler> = {
  "/api/missing/": (_req, res) => json(res, 404, { code: "not_found", msg: "No such guru." }),
  "/api/proxy/": (_req, res) => {
    res.writeHead(502, { "Content-Type": "text/html" });
    res.end("<h1>Bad gateway</h1>");
  },
  "/api/degraded/": (_req, res) => json(res, 503, { status: "degraded" }),
  "/api/ok/": (_req, res) => json(res, 200, { name: "Flask" }),
  "/api/empty/": (_req, res) => {
    res.writeHead(204);
    res.end();
  },
  "/api/slow/": (_req, res) => setTimeout(() => json(res, 200, {}), 2_000),
  "/api/echo/": (req, res) => json(res, 200, { cookie: req.headers.cookie ?? "" }),
  "/api/gurus/flask/answer/stream/": (_req, res) =>
    json(res, 429, { code: "rate_limited", msg: "Too many questions; wait a minute." }),
};

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(JSON.stringify(body));
}

let server: Server;

beforeAll(async () => {
  server = createServer((req, res) =>
    (routes[req.url ?? ""] ?? routes["/api/missing/"]!)(req, res),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  process.env.OPENGURU_API_URL = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function thrown(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe("the API client's errors", () => {
  it("carries Django's {code, msg} and the status", async () => {
    const error = await thrown(apiJson("/api/missing/"));
    expect([error.status, error.code, error.message]).toEqual([404, "not_found", "No such guru."]);
  });

  it("gives a non-JSON error page a generic sentence", async () => {
    const error = await thrown(apiRequest("/api/proxy/"));
    expect([error.status, error.code, error.message]).toEqual([
      502,
      "http_error",
      "The server answered 502.",
    ]);
  });

  it("says unreachable when nothing listens", async () => {
    const saved = process.env.OPENGURU_API_URL;
    process.env.OPENGURU_API_URL = "http://127.0.0.1:9";
    try {
      const error = await thrown(apiJson("/api/ok/"));
      expect([error.status, error.code]).toEqual([0, "unreachable"]);
    } finally {
      process.env.OPENGURU_API_URL = saved;
    }
  });

  it("passes the caller's own abort on untouched", async () => {
    const abort = new AbortController();
    const pending = apiJson("/api/slow/", { signal: abort.signal });
    abort.abort();
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
  });

  it("reads an accepted non-2xx body as the answer, and 204 as null", async () => {
    expect(await apiJson("/api/degraded/", { acceptStatuses: [503] })).toEqual({
      status: "degraded",
    });
    expect(await apiJson("/api/empty/", { method: "DELETE" })).toBeNull();
  });

  it("fails a streamed ask before the stream with the same error type", async () => {
    const stream = askStream({ guruSlug: "flask", question: "Why?" }, new AbortController().signal);
    const error = await thrown(stream.next());
    expect([error.status, error.code, error.message]).toEqual([
      429,
      "rate_limited",
      "Too many questions; wait a minute.",
    ]);
  });
});

describe("getJson, for pages that must render anyway", () => {
  it("returns the parsed data", async () => {
    const result = await getJson("/api/ok/", { parse: (body) => body as { name: string } });
    expect(result).toEqual({ ok: true, data: { name: "Flask" } });
  });

  it("never throws: an error answer, a timeout and a wrong shape become results", async () => {
    const missing = await getJson("/api/missing/", { parse: (body) => body });
    expect(missing.ok ? null : missing.error.code).toBe("not_found");

    const slow = await getJson("/api/slow/", { parse: (body) => body, timeoutMs: 100 });
    expect(slow.ok ? null : [slow.error.status, slow.error.code]).toEqual([0, "timeout"]);

    const wrong = await getJson("/api/ok/", { parse: () => null });
    expect(wrong.ok ? null : wrong.error.code).toBe("invalid");
  });

  it("forwards the visitor's cookie when asked to", async () => {
    const result = await getJson("/api/echo/", {
      parse: (body) => body,
      headers: { Cookie: "sessionid=abc" },
    });
    expect(result).toEqual({ ok: true, data: { cookie: "sessionid=abc" } });
  });
});
