"use client";

import { Button } from "@/components/console/ui/Button";
import { ErrorNotice, Loading } from "@/components/console/ui/Status";

/** What a console page shows while its server part renders. */
export function RouteLoading() {
  return <Loading what="this page" />;
}

/** A console page that threw while rendering: the reason in words and a way to try again. */
export function RouteError({ error, reset }: { error: Error; reset: () => void }) {
  return (
    <div role="alert">
      <ErrorNotice title="This page could not be shown" error={error} />
      <Button onClick={reset}>Try again</Button>
    </div>
  );
}
