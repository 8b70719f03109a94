/** `integrations/apikeys/apis.py`: the list never holds a key, only its visible prefix. */
export interface ApiKey {
  id: number;
  name: string;
  prefix: string;
  created_at: string;
  last_used_at: string | null;
}

/** The creation answer: the whole key, shown once. */
export interface CreatedApiKey extends ApiKey {
  key: string;
}
