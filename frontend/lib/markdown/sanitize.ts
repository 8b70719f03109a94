/**
 * The browser's path from markdown to markup: the escaping renderer, then DOMPurify over its
 * output, so a renderer bug still cannot put a script or an event handler on the page. Only
 * call it in the browser (DOMPurify without a DOM returns its input unchanged). The site and the
 * embeddable widget both use it, so an answer reads the same in either.
 */
import DOMPurify from "dompurify";

import { renderMarkdown } from "./render";

let hooked = false;

function purifier(): typeof DOMPurify {
  if (!hooked) {
    DOMPurify.addHook("afterSanitizeAttributes", (node) => {
      if (node.tagName === "A" && node.hasAttribute("href")) {
        node.setAttribute("target", "_blank");
        node.setAttribute("rel", "noopener noreferrer");
      }
    });
    hooked = true;
  }
  return DOMPurify;
}

const OPTIONS = {
  FORBID_TAGS: ["style", "form", "input", "button", "textarea", "select", "img"],
  FORBID_ATTR: ["style", "id"],
};

export function sanitizedMarkdown(markdown: string): string {
  if (typeof window === "undefined") return "";
  return purifier().sanitize(renderMarkdown(markdown), OPTIONS);
}

/** The same, as nodes to append (the widget builds its DOM by hand). */
export function sanitizedMarkdownFragment(markdown: string): DocumentFragment {
  return purifier().sanitize(renderMarkdown(markdown), { ...OPTIONS, RETURN_DOM_FRAGMENT: true });
}
