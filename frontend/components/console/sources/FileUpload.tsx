"use client";

import { useRef, useState, type DragEvent } from "react";

import { Field } from "@/components/console/ui/Field";
import { describeError } from "@/lib/api/client";
import { uploadFile } from "@/lib/sources/api";

import { PrivateCheckbox } from "./PrivateCheckbox";
import { UploadList, type Upload } from "./UploadList";
import styles from "./sources.module.css";

let nextId = 1;

/** The files a kind of upload takes: PDFs, or the other formats (the server reads the type from
 * the extension, sources/file_kinds.py). */
export const UPLOADS = {
  pdf: { noun: "PDF files", accept: "application/pdf,.pdf", part: "pdf-drop" },
  files: {
    noun: "Word, PowerPoint, Excel, CSV, HTML, Markdown or EPUB files",
    accept: ".docx,.pptx,.xlsx,.csv,.html,.htm,.md,.markdown,.epub",
    part: "file-drop",
  },
} as const;

interface FileUploadProps {
  slug: string;
  onAdded: () => void;
  kind: keyof typeof UPLOADS;
}

/** Files by drag and drop or the file picker; each upload shows its own progress. */
export function FileUpload({ slug, onAdded, kind }: FileUploadProps) {
  const { noun, accept, part } = UPLOADS[kind];
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [over, setOver] = useState(false);
  const [isPrivate, setPrivate] = useState(false);
  // Every upload waits for the one before, across picks and drops: each file gets the whole
  // connection, its bar moves steadily, and the guru's sources are indexed in order.
  const queue = useRef<Promise<void>>(Promise.resolve());

  const patch = (id: number, change: Partial<Upload>) =>
    setUploads((all) => all.map((u) => (u.id === id ? { ...u, ...change } : u)));

  async function upload(id: number, file: File) {
    patch(id, { state: "uploading" });
    try {
      await uploadFile(slug, file, isPrivate, ({ loaded, total }) =>
        patch(id, { sent: loaded / total }),
      );
      patch(id, { state: "done", sent: 1 });
      onAdded();
    } catch (failure) {
      patch(id, { state: "failed", error: describeError(failure) });
    }
  }

  function send(files: File[]) {
    const queued = files.map((file) => ({ id: nextId++, file }));
    const rows: Upload[] = queued.map(({ id, file }) => ({
      id,
      name: file.name,
      sent: 0,
      state: "waiting",
    }));
    setUploads((all) => [...rows, ...all]);
    for (const { id, file } of queued) {
      queue.current = queue.current.then(() => upload(id, file));
    }
  }

  function drop(event: DragEvent) {
    event.preventDefault();
    setOver(false);
    send(Array.from(event.dataTransfer.files));
  }

  return (
    <div
      className={`${styles.drop} ${over ? styles.dropActive : ""}`}
      onDragOver={(event) => {
        event.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={drop}
      data-part={part}
    >
      <p>Drop {noun} here, or choose them.</p>
      <Field label={`Choose ${noun}`}>
        {(c) => (
          <input
            {...c}
            type="file"
            accept={accept}
            multiple
            onChange={(event) => {
              send(Array.from(event.target.files ?? []));
              event.target.value = "";
            }}
          />
        )}
      </Field>
      <PrivateCheckbox checked={isPrivate} onChange={setPrivate} />
      <UploadList uploads={uploads} />
    </div>
  );
}
