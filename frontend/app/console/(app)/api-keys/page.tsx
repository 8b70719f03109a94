import type { Metadata } from "next";

import { ApiKeysPanel } from "@/components/console/keys/ApiKeysPanel";

export const metadata: Metadata = { title: "API keys" };

export default function KeysPage() {
  return <ApiKeysPanel />;
}
