import type { ReactNode } from "react";

import { GuruHeader } from "@/components/console/gurus/GuruHeader";

interface GuruLayoutProps {
  children: ReactNode;
  params: Promise<{ slug: string }>;
}

export default async function GuruLayout({ children, params }: GuruLayoutProps) {
  const { slug } = await params;
  return (
    <>
      <GuruHeader slug={slug} />
      {children}
    </>
  );
}
