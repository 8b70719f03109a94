import type { Metadata } from "next";
import type { ReactNode } from "react";

import { ConsoleProviders } from "@/components/console/shell/ConsoleProviders";

export const metadata: Metadata = {
  title: { default: "Console", template: "%s · Console · OpenGuru" },
  // The console is for admins; search engines have nothing to find here.
  robots: { index: false, follow: false },
};

export default function ConsoleLayout({ children }: { children: ReactNode }) {
  return <ConsoleProviders>{children}</ConsoleProviders>;
}
