import DOMPurify from "dompurify";
import hljs from "highlight.js/lib/core";
import bash from "highlight.js/lib/languages/bash";
import javascript from "highlight.js/lib/languages/javascript";
import json from "highlight.js/lib/languages/json";
import python from "highlight.js/lib/languages/python";
import typescript from "highlight.js/lib/languages/typescript";
import yaml from "highlight.js/lib/languages/yaml";
import { Marked, type Tokens } from "marked";

hljs.registerLanguage("bash", bash);
hljs.registerLanguage("javascript", javascript);
hljs.registerLanguage("json", json);
hljs.registerLanguage("python", python);
hljs.registerLanguage("typescript", typescript);
hljs.registerLanguage("yaml", yaml);
hljs.registerAliases(["sh", "shell", "console"], { languageName: "bash" });
hljs.registerAliases(["py"], { languageName: "python" });
hljs.registerAliases(["js"], { languageName: "javascript" });
hljs.registerAliases(["ts"], { languageName: "typescript" });
hljs.registerAliases(["yml"], { languageName: "yaml" });

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function highlighted({ text, lang }: Tokens.Code): string {
  const language = (lang ?? "").trim().split(/\s+/)[0]?.toLowerCase() ?? "";
  const html = hljs.getLanguage(language)
    ? hljs.highlight(text, { language, ignoreIllegals: true }).value
    : escapeHtml(text);
  return `<pre><code class="hljs">${html}</code></pre>\n`;
}

const marked = new Marked({ gfm: true, breaks: false, renderer: { code: highlighted } });

// Answers quote their sources, and a source may hold any HTML: everything marked emits goes
// through DOMPurify, and links open apart from the host page without handing it `opener`.
const purify = DOMPurify(window);
purify.addHook("afterSanitizeAttributes", (node) => {
  if (node.tagName === "A" && node.hasAttribute("href")) {
    node.setAttribute("target", "_blank");
    node.setAttribute("rel", "noopener noreferrer");
  }
});
const PURIFY_OPTIONS = {
  RETURN_DOM_FRAGMENT: true as const,
  FORBID_TAGS: ["style", "form", "input", "button", "textarea", "select"],
  FORBID_ATTR: ["style", "id"],
};

/** Markdown → a sanitized fragment; the only way answer text reaches the DOM as markup. */
export function markdownFragment(markdown: string): DocumentFragment {
  const html = marked.parse(markdown, { async: false });
  return purify.sanitize(html, PURIFY_OPTIONS);
}

/** Answers start with `# <title>`; the title shows apart from the body, even mid-stream. */
export function splitTitle(text: string): { title: string; body: string } {
  if (!text.startsWith("# ")) return { title: "", body: text };
  const end = text.indexOf("\n");
  if (end < 0) return { title: text.slice(2).trim(), body: "" };
  return { title: text.slice(2, end).trim(), body: text.slice(end + 1).replace(/^\s+/, "") };
}
