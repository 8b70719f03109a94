import { Badge } from "@/components/ui/Badge";
import table from "@/components/console/ui/table.module.css";
import { SOURCE_TYPE_LABELS, TOKEN_SOURCE_TYPES, type Source } from "@/lib/sources/types";

import { SourceStatus } from "./SourceStatus";
import { SourceVersion } from "./SourceVersion";
import { TokenReplace } from "./TokenReplace";

export function sourceName(source: Source): string {
  return source.title || source.url;
}

function isWebAddress(url: string): boolean {
  return /^https?:\/\//i.test(url);
}

interface SourceRowProps {
  slug: string;
  source: Source;
  selected: boolean;
  onSelect: (selected: boolean) => void;
  onChanged: () => void;
}

export function SourceRow({ slug, source, selected, onSelect, onChanged }: SourceRowProps) {
  const name = sourceName(source);
  return (
    <tr data-source-id={source.id} data-status={source.status}>
      <td>
        <input
          type="checkbox"
          aria-label={`Select ${name}`}
          checked={selected}
          onChange={(event) => onSelect(event.target.checked)}
        />
      </td>
      <td data-label="Type">{SOURCE_TYPE_LABELS[source.type]}</td>
      <td className={table.break} data-label="Source">
        {isWebAddress(source.url) ? (
          <a href={source.url} target="_blank" rel="noopener noreferrer">
            {name}
          </a>
        ) : (
          name
        )}
        {source.private ? (
          <>
            {" "}
            <Badge tone="off">private</Badge>
          </>
        ) : null}
        <SourceVersion
          key={source.version}
          slug={slug}
          sourceId={source.id}
          name={name}
          version={source.version}
          onChanged={onChanged}
        />
        {TOKEN_SOURCE_TYPES.has(source.type) ? (
          <TokenReplace
            slug={slug}
            sourceId={source.id}
            name={name}
            hasToken={source.has_token}
            onReplaced={onChanged}
          />
        ) : null}
      </td>
      <td data-label="Status">
        <SourceStatus source={source} name={name} />
      </td>
      <td className={table.number} data-part="chunk-count" data-label="Chunks">
        {source.chunk_count}
      </td>
      <td data-label="Last indexed">
        {source.last_indexed_at ? new Date(source.last_indexed_at).toLocaleString() : "never"}
      </td>
    </tr>
  );
}
