import { TIMED_OUT, UNREACHABLE, type ApiError } from "@/lib/api/client";

import { Notice } from "./Notice";

/** The one way pages explain a failed API call. */
export function ApiProblem({ error }: { error: ApiError }) {
  if (error.code === UNREACHABLE || error.code === TIMED_OUT) {
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
