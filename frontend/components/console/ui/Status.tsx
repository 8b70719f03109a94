import { Notice } from "@/components/ui/Notice";
import { describeError } from "@/lib/api/client";

/** A polite "loading" line for screen readers and eyes alike. */
export function Loading({ what }: { what: string }) {
  return <p role="status">Loading {what}…</p>;
}

/** A failed call in words. */
export function ErrorNotice({ title, error }: { title: string; error: unknown }) {
  return (
    <Notice tone="error" title={title}>
      {describeError(error)}
    </Notice>
  );
}
