import type { Metadata } from "next";

import { SourcesPanel } from "@/components/console/sources/SourcesPanel";

export const metadata: Metadata = { title: "Sources" };

export default async function GuruSourcesPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  return <SourcesPanel slug={slug} />;
}
