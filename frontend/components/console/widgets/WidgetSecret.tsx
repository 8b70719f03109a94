"use client";

import { useState } from "react";

import { Notice } from "@/components/ui/Notice";
import { ConfirmButton } from "@/components/console/ui/ConfirmButton";
import { CopyButton } from "@/components/console/ui/CopyButton";
import formStyles from "@/components/console/ui/forms.module.css";
import { rotateWidgetSecret } from "@/lib/widgets/api";
import type { WidgetId } from "@/lib/widgets/types";

/** Makes the secret a site signs a private guru's widget tokens with, and shows it once. */
export function WidgetSecret({
  slug,
  widget,
  onMade,
}: {
  slug: string;
  widget: WidgetId;
  onMade: () => void;
}) {
  const [secret, setSecret] = useState("");
  if (secret) {
    return (
      <Notice tone="warn" title="Copy this secret now: it will not be shown again.">
        <div className={formStyles.actions}>
          <code data-part="widget-secret">{secret}</code>
          <CopyButton text={secret} label="Copy secret" />
        </div>
      </Notice>
    );
  }
  return (
    <ConfirmButton
      small
      confirmLabel={widget.secret_set ? "Replace it (old tokens stop)" : "Make it"}
      onConfirm={async () => {
        setSecret(await rotateWidgetSecret(slug, widget.id));
        onMade();
      }}
    >
      {widget.secret_set ? "New signing secret" : "Signing secret"}
    </ConfirmButton>
  );
}
