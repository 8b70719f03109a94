import type { Schemas } from "@/lib/api/types";

/** A Slack, Discord or Teams bot (`IntegrationOutput`); tokens are write-only. */
export type Integration = Schemas["IntegrationOutput"];
export type IntegrationType = Schemas["IntegrationTypeEnum"];
/** The chat bots set up with a token (a GitHub App has a setup of its own). */
export type BotType = Exclude<IntegrationType, "GITHUB">;

/** A channel the bot answers in: on a mention, or every message. */
export type Channel = Schemas["ChannelOutput"];
export type ChannelMode = Schemas["ChannelModeEnum"];

/** A new bot: its token is required. */
export type IntegrationCreate = Schemas["IntegrationListRequest"];
/** A change: what is left out stays as it is (an empty token keeps the stored one). */
export type IntegrationInput = Schemas["PatchedIntegrationDetailRequest"];

export type ConnectionTest = Schemas["IntegrationTest"];
