import { describe, expect, it } from "vitest";

import { needsViewerRender, parseRevalidateRequest } from "./cache";

const none = new URLSearchParams();

describe("needsViewerRender", () => {
  it("serves the cached page to a visitor with no cookie or only the CSRF token", () => {
    expect(needsViewerRender([], none)).toBe(false);
    expect(needsViewerRender(["csrftoken"], none)).toBe(false);
  });

  it("renders per request for a session, any other cookie, or a follow-up session", () => {
    expect(needsViewerRender(["csrftoken", "sessionid"], none)).toBe(true);
    expect(needsViewerRender(["oidc_state"], none)).toBe(true);
    expect(needsViewerRender([], new URLSearchParams("binge=0f6c"))).toBe(true);
  });
});

describe("parseRevalidateRequest", () => {
  it("takes question pages and guru slugs only", () => {
    expect(parseRevalidateRequest({ paths: ["/g/py/venv"], gurus: ["py"] })).toEqual({
      paths: ["/g/py/venv"],
      gurus: ["py"],
    });
    expect(parseRevalidateRequest({ paths: ["/g/py/venv/viewer"] })).toBeNull();
    expect(parseRevalidateRequest({ paths: ["/g/py/venv?binge=1"] })).toBeNull();
    expect(parseRevalidateRequest({ gurus: ["Py Thon"] })).toBeNull();
  });
});
