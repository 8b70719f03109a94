import type { Metadata } from "next";

import { MembersPanel } from "@/components/console/members/MembersPanel";

export const metadata: Metadata = { title: "Members" };

export default function MembersPage() {
  return <MembersPanel />;
}
