"use client";

import { useState } from "react";

import { Button } from "@/components/console/ui/Button";
import formStyles from "@/components/console/ui/forms.module.css";

import { ConfluenceForm } from "./ConfluenceForm";
import { FaqForm } from "./FaqForm";
import { FileUpload } from "./FileUpload";
import { GitHubIssuesForm } from "./GitHubIssuesForm";
import { JiraForm } from "./JiraForm";
import { TextSourceForm } from "./TextSourceForm";
import { UrlSourceForm } from "./UrlSourceForm";
import { WebsiteForm } from "./WebsiteForm";
import { ZendeskForm } from "./ZendeskForm";

const KINDS = [
  { value: "website", label: "Website" },
  { value: "pdf", label: "PDF" },
  { value: "files", label: "Other files" },
  { value: "youtube", label: "YouTube" },
  { value: "github_repo", label: "GitHub" },
  { value: "github_issues", label: "GitHub issues" },
  { value: "confluence", label: "Confluence" },
  { value: "jira", label: "Jira" },
  { value: "zendesk", label: "Zendesk" },
  { value: "text", label: "Text" },
  { value: "faq", label: "FAQ" },
] as const;

type Kind = (typeof KINDS)[number]["value"];

interface AddSourceProps {
  slug: string;
  onAdded: () => void;
}

/** One form per kind of source, picked with a row of toggle buttons. */
export function AddSource({ slug, onAdded }: AddSourceProps) {
  const [kind, setKind] = useState<Kind>("website");
  const props = { slug, onAdded };
  return (
    <>
      <div className={formStyles.segmented} role="group" aria-label="Kind of source">
        {KINDS.map((option) => (
          <Button
            key={option.value}
            aria-pressed={kind === option.value}
            onClick={() => setKind(option.value)}
          >
            {option.label}
          </Button>
        ))}
      </div>
      {kind === "website" ? <WebsiteForm {...props} /> : null}
      {kind === "pdf" || kind === "files" ? <FileUpload key={kind} {...props} kind={kind} /> : null}
      {kind === "youtube" ? <UrlSourceForm {...props} type="youtube" /> : null}
      {kind === "github_repo" ? <UrlSourceForm {...props} type="github_repo" /> : null}
      {kind === "github_issues" ? <GitHubIssuesForm {...props} /> : null}
      {kind === "confluence" ? <ConfluenceForm {...props} /> : null}
      {kind === "jira" ? <JiraForm {...props} /> : null}
      {kind === "zendesk" ? <ZendeskForm {...props} /> : null}
      {kind === "text" ? <TextSourceForm {...props} /> : null}
      {kind === "faq" ? <FaqForm {...props} /> : null}
    </>
  );
}
