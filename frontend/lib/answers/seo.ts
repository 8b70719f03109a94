import { siteUrl } from "@/lib/env";

import { questionPath, type Question } from "./types";

/** Plain text from markdown, for meta descriptions: no markup, links, citations or code. */
export function plainText(markdown: string, limit = 160): string {
  const text = markdown
    .replace(/```[\s\S]*?(```|$)/g, " ")
    .replace(/^#+\s.*$/m, " ")
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\[\d+\]/g, "")
    .replace(/[`*_>#|~-]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return text.length > limit ? `${text.slice(0, limit - 1).trimEnd()}…` : text;
}

export function questionDescription(question: Question): string {
  return question.description || plainText(question.content);
}

/** The canonical page of a question: the session query never is part of it. */
export function canonicalQuestionUrl(guruSlug: string, slug: string): string {
  return `${siteUrl()}${questionPath(guruSlug, slug)}`;
}

/**
 * JSON for a `<script type="application/ld+json">`: `<`, `>` and `&` become JSON escapes, so
 * an answer that contains `</script>` or `<!--` cannot end the script element early.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

export function qaPageJsonLd(guruSlug: string, question: Question): object {
  const url = canonicalQuestionUrl(guruSlug, question.slug);
  return {
    "@context": "https://schema.org",
    "@type": "QAPage",
    mainEntity: {
      "@type": "Question",
      name: question.question,
      text: question.user_question || question.question,
      answerCount: 1,
      dateCreated: question.created_at,
      acceptedAnswer: {
        "@type": "Answer",
        text: question.content,
        dateCreated: question.updated_at || question.created_at,
        upvoteCount: question.upvotes,
        url,
      },
    },
  };
}
