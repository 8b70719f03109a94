/** `integrations/apikeys/apis.py`: the list never holds a key, only its visible prefix. */
/** "": all of its owner's rights; "ask": answers, search, sessions; "manage": those and sources. */
export type KeyScope = "" | "ask" | "manage";

export interface ApiKey {
  id: number;
  name: string;
  prefix: string;
  scope: KeyScope;
  /** The only gurus it reaches (slugs); empty: any its owner may. */
  gurus: string[];
  created_at: string;
  last_used_at: string | null;
}

/** The creation answer: the whole key, shown once. */
export interface CreatedApiKey extends ApiKey {
  key: string;
}

/** What a new key is limited to; nothing named: its owner's rights on every guru. */
export interface ApiKeyLimits {
  scope: KeyScope;
  gurus: string[];
}
