"use client";

import { RouteError } from "@/components/console/shell/RouteStates";

export default function ConsoleError({ error, reset }: { error: Error; reset: () => void }) {
  return <RouteError error={error} reset={reset} />;
}
