import type { Metadata } from "next";

import { SettingsPanel } from "@/components/console/settings/SettingsPanel";

export const metadata: Metadata = { title: "Settings" };

export default function SettingsPage() {
  return <SettingsPanel />;
}
