"use client";

import { Card } from "@/components/console/ui/Card";
import { PageHeader } from "@/components/console/ui/PageHeader";
import { ErrorNotice, Loading } from "@/components/console/ui/Status";
import styles from "@/components/console/ui/layout.module.css";
import { usePlatformSettings } from "@/lib/settings/hooks";

import { HealthList } from "./HealthList";
import { ProviderFacts } from "./ProviderFacts";
import { SettingsForm } from "./SettingsForm";

export function SettingsPanel() {
  const { data: settings, error, mutate } = usePlatformSettings();
  return (
    <>
      <PageHeader
        title="Settings"
        description="The deployment's providers, health and answer thresholds."
      />
      <div className={styles.grid2}>
        <Card title="Health">
          <HealthList />
        </Card>
        <Card title="Providers">{settings ? <ProviderFacts settings={settings} /> : null}</Card>
      </div>
      <Card title="Answer settings">
        {error ? <ErrorNotice title="Settings could not be loaded" error={error} /> : null}
        {!settings && !error ? <Loading what="settings" /> : null}
        {settings ? (
          <SettingsForm
            settings={settings}
            onSaved={(saved) => void mutate(saved, { revalidate: false })}
          />
        ) : null}
      </Card>
    </>
  );
}
