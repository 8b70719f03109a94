/** A Slack or Discord bot (`IntegrationOutput`); tokens are write-only. */
export type IntegrationType = "SLACK" | "DISCORD";
export type ChannelMode = "mention" | "all";

export interface Channel {
  id: string;
  name: string;
  mode: ChannelMode;
}

export interface Integration {
  id: number;
  type: IntegrationType;
  external_id: string;
  workspace_name: string;
  channels: Channel[];
  dms_enabled: boolean;
  has_token: boolean;
  has_signing_secret: boolean;
  api_key_prefix: string | null;
  created_at: string;
}

export interface IntegrationInput {
  type?: IntegrationType;
  external_id?: string;
  workspace_name?: string;
  bot_token?: string;
  signing_secret?: string;
  channels?: Channel[];
  dms_enabled?: boolean;
}

export interface ConnectionTest {
  ok: boolean;
  detail: string;
}
