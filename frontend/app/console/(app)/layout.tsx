import { headers } from "next/headers";
import type { ReactNode } from "react";

import { ConsoleGuard } from "@/components/console/shell/ConsoleGuard";
import { requireConsoleUser } from "@/lib/auth/server";
import { CONSOLE_PATH_HEADER } from "@/proxy";

export default async function GuardedLayout({ children }: { children: ReactNode }) {
  const path = (await headers()).get(CONSOLE_PATH_HEADER) || "/console";
  const session = await requireConsoleUser(path);
  return <ConsoleGuard initialSession={session}>{children}</ConsoleGuard>;
}
