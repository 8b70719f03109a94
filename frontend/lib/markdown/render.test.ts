import { describe, expect, it } from "vitest";

import { renderMarkdown, safeUrl, splitTitle } from "./render";

describe("renderMarkdown", () => {
  it("prints raw HTML as text, so placeholders in commands stay readable", () => {
    const html = renderMarkdown("Run rollback --to <release-id> now. <img src=x onerror=alert(1)>");
    expect(html).toContain("--to &#60;release-id&#62;");
    expect(html).not.toContain("<img");
    expect(html).not.toContain("<release-id>");
  });

  it("keeps safe links, opening apart, and drops javascript: ones", () => {
    const html = renderMarkdown("[docs](https://docs.example.org/) and [x](javascript:alert(1))");
    expect(html).toContain(
      '<a href="https://docs.example.org/" target="_blank" rel="noopener noreferrer">docs</a>',
    );
    expect(html).not.toContain("javascript:");
  });

  it("turns images into links, never loading them", () => {
    const html = renderMarkdown("![diagram](https://img.example.org/d.png)");
    expect(html).not.toContain("<img");
    expect(html).toContain('href="https://img.example.org/d.png"');
  });

  it("highlights known languages and escapes the rest", () => {
    expect(renderMarkdown("```python\nprint(1)\n```")).toContain('class="hljs-built_in"');
    expect(renderMarkdown("```nope\n<b>\n```")).toContain("&#60;b&#62;");
  });
});

describe("safeUrl", () => {
  it("refuses schemes hidden behind control characters", () => {
    expect(safeUrl("java\tscript:alert(1)")).toBeNull();
    expect(safeUrl("data:text/html,x")).toBeNull();
    expect(safeUrl("/g/python")).toBe("/g/python");
    expect(safeUrl("//evil.example")).toBeNull();
  });
});

describe("splitTitle", () => {
  it("parts the heading from the body, even before the body arrives", () => {
    expect(splitTitle("# Title\n\nBody")).toEqual({ title: "Title", body: "Body" });
    expect(splitTitle("# Tit")).toEqual({ title: "Tit", body: "" });
    expect(splitTitle("No heading")).toEqual({ title: "", body: "No heading" });
  });
});
