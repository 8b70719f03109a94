"use client";

import { useEffect, useRef } from "react";

import { Field } from "@/components/console/ui/Field";

/** Picks an icon image; the form uploads it when the guru is saved. `onPick` also gets a
 * local address of the image for the preview ("" when none). */
export function IconPicker({
  onPick,
}: {
  onPick: (file: File | null, previewUrl: string) => void;
}) {
  const urlRef = useRef("");
  useEffect(() => () => URL.revokeObjectURL(urlRef.current), []);

  function choose(file: File | null) {
    if (urlRef.current) URL.revokeObjectURL(urlRef.current);
    urlRef.current = file ? URL.createObjectURL(file) : "";
    onPick(file, urlRef.current);
  }

  return (
    <Field
      label="Upload an icon"
      hint="PNG, JPEG, GIF or WebP, at most 1 MB; uploaded when you save."
    >
      {(c) => (
        <input
          {...c}
          type="file"
          accept="image/png,image/jpeg,image/webp,image/gif"
          onChange={(event) => choose(event.target.files?.[0] ?? null)}
        />
      )}
    </Field>
  );
}
