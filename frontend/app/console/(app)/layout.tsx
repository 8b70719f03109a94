import type { ReactNode } from "react";

import { ConsoleGuard } from "@/components/console/shell/ConsoleGuard";

export default function GuardedLayout({ children }: { children: ReactNode }) {
  return <ConsoleGuard>{children}</ConsoleGuard>;
}
