// Everything the widget looks like, inside its shadow root: the host page's CSS cannot reach
// in, and none of this leaks out. System fonts only; nothing is downloaded.
export const STYLES = `
:host { all: initial; }
.og {
  --accent: #2563eb; --bg: #ffffff; --fg: #111827; --muted: #6b7280; --line: #e5e7eb;
  --soft: #f3f4f6; --code: #f6f8fa; --danger: #b91c1c;
  --kw: #cf222e; --str: #0a3069; --num: #0550ae; --com: #6e7781; --fn: #8250df;
  font: 14px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  color: var(--fg); -webkit-font-smoothing: antialiased;
}
.og[data-theme="dark"] {
  --bg: #111827; --fg: #f3f4f6; --muted: #9ca3af; --line: #374151; --soft: #1f2937;
  --code: #0d1117; --danger: #f87171;
  --kw: #ff7b72; --str: #a5d6ff; --num: #79c0ff; --com: #8b949e; --fn: #d2a8ff;
}
.og *, .og *::before, .og *::after { box-sizing: border-box; }
.og [hidden] { display: none !important; }
button, textarea, input { font: inherit; color: inherit; }
button { cursor: pointer; }
:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
.launcher {
  position: fixed; right: 20px; bottom: 20px; z-index: 2147483000;
  display: inline-flex; align-items: center; gap: 8px; padding: 12px 16px;
  border: 0; border-radius: 999px; background: var(--accent); color: #fff;
  box-shadow: 0 6px 20px rgba(0,0,0,.2); font-weight: 600;
}
.og[data-mode="sidebar"] .launcher {
  right: 0; bottom: 50%; border-radius: 8px 0 0 8px; padding: 12px 10px;
  writing-mode: vertical-rl; transform: translateY(50%);
}
.panel {
  position: fixed; right: 20px; bottom: 20px; z-index: 2147483001;
  width: min(440px, calc(100vw - 40px)); height: min(640px, calc(100vh - 40px));
  display: flex; flex-direction: column; overflow: hidden;
  background: var(--bg); color: var(--fg); border: 1px solid var(--line); border-radius: 14px;
  box-shadow: 0 12px 40px rgba(0,0,0,.25);
}
.og[data-mode="sidebar"] .panel {
  top: 0; right: 0; bottom: 0; height: 100vh; width: min(460px, 100vw); border-radius: 0;
}
@media (max-width: 600px) {
  .panel, .og[data-mode="sidebar"] .panel {
    inset: 0; width: 100vw; height: 100vh; height: 100dvh; border-radius: 0; border: 0;
  }
}
header {
  display: flex; align-items: center; gap: 10px; padding: 12px 14px;
  border-bottom: 1px solid var(--line);
}
header img { width: 28px; height: 28px; border-radius: 6px; object-fit: cover; }
header h2 { flex: 1; margin: 0; font-size: 15px; font-weight: 650; }
header select { font: inherit; font-size: 13px; max-width: 7em; }
.icon-button {
  display: inline-flex; align-items: center; justify-content: center; padding: 6px;
  border: 0; border-radius: 8px; background: transparent; color: var(--muted);
}
.icon-button:hover { background: var(--soft); color: var(--fg); }
.log { flex: 1; overflow-y: auto; padding: 14px; display: flex; flex-direction: column; gap: 14px; }
.intro { color: var(--muted); }
.examples { display: flex; flex-wrap: wrap; gap: 6px; margin-top: 8px; }
.chip {
  border: 1px solid var(--line); background: var(--soft); border-radius: 999px;
  padding: 5px 10px; text-align: left; font-size: 13px;
}
.chip:hover { border-color: var(--accent); }
.question { align-self: flex-end; max-width: 85%; background: var(--accent); color: #fff;
  padding: 8px 12px; border-radius: 12px 12px 2px 12px; white-space: pre-wrap; }
.answer { display: flex; flex-direction: column; gap: 10px; }
.answer h3 { margin: 0; font-size: 15px; }
.body { overflow-wrap: anywhere; }
.body > :first-child { margin-top: 0; }
.body > :last-child { margin-bottom: 0; }
.body a { color: var(--accent); }
.body img { max-width: 100%; }
.body pre { background: var(--code); border: 1px solid var(--line); border-radius: 8px;
  padding: 10px; overflow-x: auto; font-size: 12.5px; }
.body code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.body :not(pre) > code { background: var(--soft); padding: 1px 4px; border-radius: 4px; }
.body table { border-collapse: collapse; }
.body th, .body td { border: 1px solid var(--line); padding: 4px 8px; }
.hljs-keyword, .hljs-built_in, .hljs-literal, .hljs-meta { color: var(--kw); }
.hljs-string, .hljs-attr, .hljs-symbol { color: var(--str); }
.hljs-number, .hljs-variable, .hljs-params { color: var(--num); }
.hljs-comment { color: var(--com); font-style: italic; }
.hljs-title, .hljs-function, .hljs-class, .hljs-section { color: var(--fn); }
.thinking { color: var(--muted); }
.thinking::after { content: "…"; }
.meta { display: flex; flex-direction: column; gap: 8px; border-top: 1px solid var(--line);
  padding-top: 8px; font-size: 13px; }
.trust { display: flex; align-items: center; gap: 8px; color: var(--muted); }
.trust-bar { flex: 0 0 80px; height: 6px; border-radius: 3px; background: var(--soft); overflow: hidden; }
.trust-bar span { display: block; height: 100%; background: var(--accent); }
.refs { list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column; gap: 4px; }
.refs a { display: inline-flex; align-items: center; gap: 6px; color: var(--accent); text-decoration: none; }
.refs a:hover { text-decoration: underline; }
.refs svg { flex: none; color: var(--muted); }
.refs li { display: flex; align-items: center; gap: 6px; }
.refs li > span:last-child { display: inline-flex; align-items: center; gap: 6px; }
.ref-number { color: var(--muted); font-variant-numeric: tabular-nums; }
.votes { display: flex; align-items: center; gap: 4px; color: var(--muted); }
.votes [aria-pressed="true"] { color: var(--accent); }
.feedback { display: flex; flex-direction: column; gap: 6px; }
.feedback textarea { resize: vertical; min-height: 56px; padding: 6px 8px; border-radius: 8px;
  border: 1px solid var(--line); background: var(--bg); }
.row { display: flex; gap: 6px; }
.primary { border: 0; border-radius: 8px; padding: 6px 12px; background: var(--accent); color: #fff; }
.secondary { border: 1px solid var(--line); border-radius: 8px; padding: 6px 12px; background: transparent; }
.error { border: 1px solid var(--danger); color: var(--danger); border-radius: 10px; padding: 10px;
  display: flex; flex-direction: column; gap: 8px; align-items: flex-start; }
.notice { background: var(--soft); border-radius: 10px; padding: 10px; }
form.ask { display: flex; gap: 8px; padding: 10px 12px; border-top: 1px solid var(--line); }
form.ask textarea { flex: 1; resize: none; min-height: 40px; max-height: 120px; padding: 9px 10px;
  border: 1px solid var(--line); border-radius: 10px; background: var(--bg); }
form.ask button { border: 0; border-radius: 10px; padding: 0 12px; background: var(--accent); color: #fff; }
form.ask button:disabled { opacity: .5; cursor: default; }
.sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
`;
