/** The site's markdown renderer and sanitiser, bundled in: an answer reads the same in both. */
export { splitTitle } from "../../lib/markdown/render";
export { sanitizedMarkdownFragment as markdownFragment } from "../../lib/markdown/sanitize";
