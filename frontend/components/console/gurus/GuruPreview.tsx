import { GuruBanner, guruStyle } from "@/components/answers/GuruBanner";
import type { Guru } from "@/lib/gurus/types";

import styles from "../ui/layout.module.css";

/** The guru page's header as visitors will see it, drawn from the form's current values. */
export function GuruPreview({ guru }: { guru: Guru }) {
  return (
    <section aria-label="Preview of the guru page header" style={guruStyle(guru)}>
      <p className={styles.muted}>Preview</p>
      <div aria-hidden="true" data-part="guru-preview">
        <GuruBanner guru={guru} />
      </div>
    </section>
  );
}
