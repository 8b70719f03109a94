"use client";

import { Card } from "@/components/console/ui/Card";
import { PageHeader } from "@/components/console/ui/PageHeader";
import { ErrorNotice, Loading } from "@/components/console/ui/Status";
import { useApiKeys } from "@/lib/keys/hooks";

import { ApiKeyTable } from "./ApiKeyTable";
import { NewApiKey } from "./NewApiKey";

export function ApiKeysPanel() {
  const { data: keys, error, mutate } = useApiKeys();
  return (
    <>
      <PageHeader
        title="API keys"
        description="Keys for the REST API v1 and MCP (send one as X-API-KEY). Each is shown once."
      />
      <Card title="New key">
        <NewApiKey onCreated={() => void mutate()} />
      </Card>
      <Card title="Your keys">
        {error ? <ErrorNotice title="Keys could not be loaded" error={error} /> : null}
        {!keys && !error ? <Loading what="keys" /> : null}
        {keys && keys.length === 0 ? <p>No keys yet.</p> : null}
        {keys && keys.length > 0 ? (
          <ApiKeyTable keys={keys} onRevoked={() => void mutate()} />
        ) : null}
      </Card>
    </>
  );
}
