import styles from "./sources.module.css";

export interface Upload {
  id: number;
  name: string;
  /** Share of the file sent, 0 to 1. */
  sent: number;
  state: "waiting" | "uploading" | "done" | "failed";
  error?: string;
}

const WORDS: Record<Upload["state"], string> = {
  waiting: "waiting",
  uploading: "uploading",
  done: "uploaded",
  failed: "failed",
};

export function UploadList({ uploads }: { uploads: Upload[] }) {
  if (!uploads.length) return null;
  return (
    <ul className={styles.uploads} aria-label="Uploads">
      {uploads.map((upload) => (
        <li key={upload.id} data-upload-state={upload.state}>
          <span>
            {upload.name}: {WORDS[upload.state]}
            {upload.state === "uploading" ? ` ${Math.round(upload.sent * 100)}%` : ""}
          </span>
          <progress
            className={styles.bar}
            max={1}
            value={upload.sent}
            aria-label={`Upload of ${upload.name}`}
          />
          {upload.error ? <span className={styles.error}>{upload.error}</span> : null}
        </li>
      ))}
    </ul>
  );
}
