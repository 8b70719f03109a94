// @vitest-environment jsdom
import { describe, expect, it } from "vitest";

import { sanitizedMarkdown, sanitizedMarkdownFragment } from "./sanitize";

describe("sanitizedMarkdown", () => {
  it("leaves no script, handler or image, and shows the markup as text", () => {
    const html = sanitizedMarkdown("<script>alert(1)</script> <img src=x onerror=alert(2)>");
    const box = document.createElement("div");
    box.innerHTML = html;
    expect(box.querySelectorAll("script, img, [onerror]").length).toBe(0);
    expect(box.textContent).toContain("<script>alert(1)</script>");
  });

  it("opens every link apart from the page", () => {
    const box = document.createElement("div");
    box.innerHTML = sanitizedMarkdown("[a](https://a.example.org/)");
    const link = box.querySelector("a");
    expect(link?.getAttribute("target")).toBe("_blank");
    expect(link?.getAttribute("rel")).toBe("noopener noreferrer");
  });

  it("gives the widget the same answer as nodes", () => {
    const fragment = sanitizedMarkdownFragment("Run `x` with --to <release-id>");
    expect(fragment.textContent).toContain("--to <release-id>");
    expect(fragment.querySelector("code")?.textContent).toBe("x");
  });
});
