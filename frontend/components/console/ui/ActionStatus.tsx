import { Notice } from "@/components/ui/Notice";

/** What the last action did: an error in an alert, or a short confirmation. */
export function ActionStatus({ error, message }: { error: string; message: string }) {
  if (error)
    return (
      <Notice tone="error" title="That did not work">
        {error}
      </Notice>
    );
  if (message) return <Notice tone="info" title={message} />;
  return null;
}
