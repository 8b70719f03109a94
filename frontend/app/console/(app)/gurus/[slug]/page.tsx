import type { Metadata } from "next";

import { GuruEditor } from "@/components/console/gurus/GuruEditor";

export const metadata: Metadata = { title: "Guru settings" };

export default async function GuruSettingsPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  return <GuruEditor slug={slug} />;
}
