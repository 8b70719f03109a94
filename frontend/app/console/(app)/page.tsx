import type { Metadata } from "next";

import { GuruList } from "@/components/console/gurus/GuruList";

export const metadata: Metadata = { title: "Gurus" };

export default function ConsoleHome() {
  return <GuruList />;
}
