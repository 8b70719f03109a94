"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { mutate } from "swr";

import { ConfirmButton } from "@/components/console/ui/ConfirmButton";
import { describeError } from "@/lib/api/client";
import { deleteGuru, GURUS_PATH } from "@/lib/console/gurus";

export function DeleteGuru({ slug, name }: { slug: string; name: string }) {
  const router = useRouter();
  const [error, setError] = useState("");
  async function remove() {
    try {
      await deleteGuru(slug);
      await mutate(GURUS_PATH);
      router.push("/console");
    } catch (failure) {
      setError(describeError(failure));
    }
  }
  return (
    <>
      <p>Deletes {name}, its sources, its index and its answers. This cannot be undone.</p>
      <div>
        <ConfirmButton confirmLabel={`Yes, delete ${name}`} onConfirm={remove}>
          Delete guru
        </ConfirmButton>
      </div>
      {error ? <p role="alert">{error}</p> : null}
    </>
  );
}
