import type { Metadata } from "next";
import type { ReactNode } from "react";

import { SiteFooter } from "@/components/ui/SiteFooter";
import { SiteHeader } from "@/components/ui/SiteHeader";

import "./globals.css";

export const metadata: Metadata = {
  title: { default: "OpenGuru", template: "%s · OpenGuru" },
  description: "Self-hosted AI gurus that answer questions about your docs, with citations.",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <SiteHeader />
        {children}
        <SiteFooter />
      </body>
    </html>
  );
}
