"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { mutate } from "swr";

import { Button } from "@/components/console/ui/Button";
import { SESSION_PATH, signOut } from "@/lib/auth/api";
import { describeError } from "@/lib/api/client";

export function SignOutButton() {
  const router = useRouter();
  const [error, setError] = useState("");
  async function leave() {
    try {
      await signOut();
      // Drop every cached admin answer, then show the sign-in page.
      await mutate(() => true, undefined, { revalidate: false });
      await mutate(SESSION_PATH);
      router.replace("/console/sign-in");
    } catch (failure) {
      setError(describeError(failure));
    }
  }
  return (
    <>
      <Button small onClick={leave}>
        Sign out
      </Button>
      {error ? <span role="alert">{error}</span> : null}
    </>
  );
}
