import type { Metadata } from "next";

import { WidgetPanel } from "@/components/console/widgets/WidgetPanel";

export const metadata: Metadata = { title: "Widget" };

export default async function GuruWidgetPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  return <WidgetPanel slug={slug} />;
}
