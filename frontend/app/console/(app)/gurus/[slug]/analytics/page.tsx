import type { Metadata } from "next";

import { AnalyticsPanel } from "@/components/console/analytics/AnalyticsPanel";

export const metadata: Metadata = { title: "Analytics" };

export default async function GuruAnalyticsPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  return <AnalyticsPanel slug={slug} />;
}
