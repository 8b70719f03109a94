import { configFromScript } from "./config";
import { Widget } from "./widget";

// `currentScript` only exists while this file first runs, so read the tag's settings now.
const script = document.currentScript as HTMLScriptElement | null;
const config = script ? configFromScript(script) : null;

if (!config) {
  console.error("OpenGuru widget: add data-widget-id to the <script> tag.");
} else {
  const start = () => new Widget(config).mount();
  if (document.body) start();
  else document.addEventListener("DOMContentLoaded", start, { once: true });
}
