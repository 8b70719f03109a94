import type { Metadata } from "next";

import { IntegrationsPanel } from "@/components/console/integrations/IntegrationsPanel";

export const metadata: Metadata = { title: "Integrations" };

export default async function GuruIntegrationsPage({
  params,
}: {
  params: Promise<{ slug: string }>;
}) {
  const { slug } = await params;
  return <IntegrationsPanel slug={slug} />;
}
