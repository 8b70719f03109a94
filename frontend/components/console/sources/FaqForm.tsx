"use client";

import { useState, type FormEvent } from "react";

import { ActionStatus } from "@/components/console/ui/ActionStatus";
import { Button } from "@/components/console/ui/Button";
import { Field } from "@/components/console/ui/Field";
import formStyles from "@/components/console/ui/forms.module.css";
import { useAction } from "@/lib/console/useAction";
import { addSource } from "@/lib/sources/api";

import styles from "./sources.module.css";

interface Entry {
  key: number;
  question: string;
  answer: string;
}

let nextKey = 1;
const blank = (): Entry => ({ key: nextKey++, question: "", answer: "" });

/** Question and answer pairs; Django reads them as a JSON list of {question, answer}. */
export function FaqForm({ slug, onAdded }: { slug: string; onAdded: () => void }) {
  const [title, setTitle] = useState("");
  const [entries, setEntries] = useState<Entry[]>(() => [blank()]);
  const { run, busy, error, message } = useAction();

  function change(key: number, field: "question" | "answer", value: string) {
    setEntries((all) => all.map((e) => (e.key === key ? { ...e, [field]: value } : e)));
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const pairs = entries.map(({ question, answer }) => ({ question, answer }));
    const ok = await run(async () => {
      await addSource(slug, { type: "faq", title: title.trim(), content: JSON.stringify(pairs) });
      return "Added: indexing starts in a moment.";
    });
    if (ok) {
      setTitle("");
      setEntries([blank()]);
      onAdded();
    }
  }

  return (
    <form className={formStyles.form} onSubmit={submit} aria-label="Add FAQ entries">
      <Field label="Title">
        {(c) => <input {...c} required value={title} onChange={(e) => setTitle(e.target.value)} />}
      </Field>
      {entries.map((entry, index) => (
        <fieldset key={entry.key} className={`${formStyles.fieldset} ${styles.faqEntry}`}>
          <legend className={formStyles.legend}>Entry {index + 1}</legend>
          <Field label="Question">
            {(c) => (
              <input
                {...c}
                required
                value={entry.question}
                onChange={(e) => change(entry.key, "question", e.target.value)}
              />
            )}
          </Field>
          <Field label="Answer">
            {(c) => (
              <textarea
                {...c}
                required
                rows={3}
                value={entry.answer}
                onChange={(e) => change(entry.key, "answer", e.target.value)}
              />
            )}
          </Field>
          {entries.length > 1 ? (
            <div>
              <Button small onClick={() => setEntries((all) => all.filter((e) => e !== entry))}>
                Remove entry {index + 1}
              </Button>
            </div>
          ) : null}
        </fieldset>
      ))}
      <ActionStatus error={error} message={message} />
      <div className={formStyles.actions}>
        <Button onClick={() => setEntries((all) => [...all, blank()])}>Add another entry</Button>
        <Button type="submit" variant="primary" disabled={busy}>
          Add FAQ
        </Button>
      </div>
    </form>
  );
}
