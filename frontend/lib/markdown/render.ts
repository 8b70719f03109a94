/**
 * Answer markdown → HTML that is safe without a DOM sanitizer, so the server can render stored
 * answers into the page before any JavaScript runs (DOMPurify needs a DOM, and the server has
 * none). Answers quote their sources, and a source may hold any HTML, so the renderer admits no
 * raw HTML at all: every HTML token marked finds is printed as escaped text. The remaining
 * markup is only what marked itself emits from markdown, with every attribute value escaped, and
 * links and images limited to http(s), mailto and same-site paths (no `javascript:`/`data:`).
 * In the browser the same HTML also goes through DOMPurify (see sanitize.ts).
 */
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

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const SAFE_URL = /^(?:https?:\/\/|mailto:|\/(?!\/)|#)/i;

/** The URL itself when its scheme is harmless, else null. Control characters never pass. */
export function safeUrl(href: string): string | null {
  // Browsers ignore whitespace and control characters inside a scheme ("java\tscript:").
  const cleaned = href.trim().replace(/[\u0000-\u0020\u007f]/g, "");
  return SAFE_URL.test(cleaned) ? cleaned : null;
}

function code({ text, lang }: Tokens.Code): string {
  const language = (lang ?? "").trim().split(/\s+/)[0]?.toLowerCase() ?? "";
  const html = hljs.getLanguage(language)
    ? hljs.highlight(text, { language, ignoreIllegals: true }).value
    : escapeHtml(text);
  return `<pre><code class="hljs">${html}</code></pre>\n`;
}

const marked = new Marked({
  gfm: true,
  breaks: false,
  renderer: {
    code,
    html: ({ text }: Tokens.HTML | Tokens.Tag) => escapeHtml(text),
    link(token: Tokens.Link): string {
      const text = this.parser.parseInline(token.tokens);
      const href = safeUrl(token.href);
      if (href === null) return text;
      const title = token.title ? ` title="${escapeHtml(token.title)}"` : "";
      return `<a href="${escapeHtml(href)}"${title} target="_blank" rel="noopener noreferrer">${text}</a>`;
    },
    image({ href, text }: Tokens.Image): string {
      // Images in answers come from third-party sources; show their link, never load them.
      const url = safeUrl(href);
      if (url === null) return escapeHtml(text);
      return `<a href="${escapeHtml(url)}" target="_blank" rel="noopener noreferrer">${escapeHtml(text || url)}</a>`;
    },
  },
});

/** Markdown → HTML with no raw HTML and no unsafe URLs (see the module comment). */
export function renderMarkdown(markdown: string): string {
  return marked.parse(markdown, { async: false });
}

/** Answers start with `# <title>`; the title shows apart from the body, even mid-stream. */
export function splitTitle(text: string): { title: string; body: string } {
  if (!text.startsWith("# ")) return { title: "", body: text };
  const end = text.indexOf("\n");
  if (end < 0) return { title: text.slice(2).trim(), body: "" };
  return { title: text.slice(2, end).trim(), body: text.slice(end + 1).replace(/^\s+/, "") };
}
