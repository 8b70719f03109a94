import { describe, expect, it } from "vitest";

import {
  parseBinge,
  parseQuestion,
  parseSitemap,
  versionBadge,
  type Answer,
  type Question,
} from "./types";

// As QuestionOutput and QuestionDetailOutput document them (tests/core/openapi_snapshot.json).
const ANSWER: Answer = {
  slug: "venv",
  question: "How do I create a virtual environment?",
  user_question: "how do i create a venv",
  content: "Create one with `python -m venv myenv` [1].",
  description: "Creating a Python virtual environment.",
  references: [{ title: "venv", link: "https://docs.python.org/3/library/venv.html", icon: "web" }],
  trust_score: 0.82,
  extractive: false,
  grounding: null,
  binge_id: null,
  parent_slug: null,
  version: "",
  created_at: "2025-01-01T12:00:00Z",
  updated_at: "2025-01-01T12:00:00Z",
};

const QUESTION: Question = {
  ...ANSWER,
  stale: false,
  upvotes: 2,
  downvotes: 0,
  children: [{ slug: "activate", question: "How do I activate it?" }],
  indexable: true,
};

describe("parseQuestion", () => {
  it("takes an answer shaped as the schema says, as it is", () => {
    expect(parseQuestion(structuredClone(QUESTION))).toEqual(QUESTION);
  });

  it("refuses half an answer rather than render made-up values", () => {
    const noContent: Record<string, unknown> = { ...QUESTION };
    delete noContent.content;
    expect(parseQuestion(noContent)).toBeNull();
    expect(parseQuestion({ ...QUESTION, children: [{ slug: 1 }] })).toBeNull();
    expect(parseQuestion({ ...QUESTION, grounding: { status: "maybe" } })).toBeNull();
    expect(parseQuestion("<html>Bad gateway</html>")).toBeNull();
  });
});

describe("parseBinge", () => {
  it("takes a conversation whose turns are answers (without votes or follow-ups)", () => {
    const binge = { binge_id: "b1", root: ANSWER, questions: [ANSWER] };
    expect(parseBinge(binge)).toEqual(binge);
    expect(parseBinge({ ...binge, questions: [{ slug: "x" }] })).toBeNull();
  });
});

describe("parseSitemap", () => {
  it("leaves out an entry it cannot link, not the whole sitemap", () => {
    const entry = { guru_slug: "python", slug: "venv", date_updated: "2025-01-01" };
    expect(parseSitemap([entry, { slug: "no-guru" }, null])).toEqual([entry]);
    expect(parseSitemap({})).toBeNull();
  });
});

describe("versionBadge", () => {
  it("names the version an answer was read from, and nothing for an unversioned guru", () => {
    expect(versionBadge({ ...QUESTION, version: "4.2" })).toBe("Version 4.2");
    expect(versionBadge(QUESTION)).toBeNull();
  });

  it("reads an answer from an older server, without a version, as unversioned", () => {
    const older: Record<string, unknown> = { ...QUESTION };
    delete older.version;
    const parsed = parseQuestion(older);
    expect(parsed).not.toBeNull();
    expect(versionBadge(parsed as Question)).toBeNull();
    expect(parseQuestion({ ...QUESTION, version: 4.2 })).toBeNull();
  });
});
