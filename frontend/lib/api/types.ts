/**
 * The API's shapes, generated from the schema snapshot into schema.d.ts (`npm run api:types`;
 * tests/core/test_ui_api_types.py fails when it is out of date). Name them here, once.
 */
import type { components } from "./schema";

export type Schemas = components["schemas"];
export type SourceTotals = Schemas["SourceTotals"];
