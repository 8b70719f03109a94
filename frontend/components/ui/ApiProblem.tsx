import type { ApiFailure } from "@/lib/http";

import { Notice } from "./Notice";

/** The one way pages explain a failed API call. */
export function ApiProblem({ error }: { error: ApiFailure }) {
  if (error.kind === "unreachable") {
    return (
      <Notice tone="warn" title="API unreachable">
        {error.message} Start the backend (<code>make run</code>) and reload this page.
      </Notice>
    );
  }
  return (
    <Notice tone="error" title="The API returned an error">
      {error.message}
    </Notice>
  );
}
