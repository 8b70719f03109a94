"use client";

import { ApiError, UNREACHABLE } from "@/lib/api/client";
import { ApiProblem } from "@/components/ui/ApiProblem";

import styles from "../page.module.css";

/** A cached question page whose render failed (the API did not answer) is never cached. */
export default function QuestionPageError() {
  const error = new ApiError(0, UNREACHABLE, "The server could not be reached.");
  return (
    <main className={styles.main}>
      <ApiProblem error={error} />
    </main>
  );
}
