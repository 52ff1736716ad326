/**
 * The console page: one HTML document with its style and script inline, so it needs no
 * external asset. A Content-Security-Policy admits exactly that script and style (by hash) and
 * connections to this origin only; the script (src/console/browser, bundled into
 * page-script.ts at build time) writes model and workspace text with `textContent` after
 * making control and bidi characters visible (as the CLI does).
 */
import { createHash } from 'node:crypto';
import { PAGE_SCRIPT } from './page-script.js';
import { TIMELINE_STYLE } from './timeline-style.js';

const STYLE = `
:root { color-scheme: light; --line: #d7dbe0; --muted: #5f6b7a; --accent: #2457c5; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, sans-serif; color: #1d232b; background: #f5f6f8; }
header { display: flex; align-items: center; gap: 12px; padding: 10px 16px; background: #1d232b; color: #fff; }
header h1 { font-size: 16px; margin: 0; font-weight: 600; }
header .status { margin-left: auto; font-size: 12px; color: #c9d1db; }
main { display: grid; grid-template-columns: minmax(360px, 42%) minmax(0, 1fr); gap: 12px; padding: 12px; }
.side { display: flex; flex-direction: column; gap: 12px; min-width: 0; }
section { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 10px 12px; min-width: 0; }
h2 { font-size: 13px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); margin: 0 0 8px; }
table { width: 100%; border-collapse: collapse; font-size: 12px; table-layout: fixed; }
th, td { text-align: left; padding: 4px 5px; border-bottom: 1px solid var(--line); vertical-align: top; }
th:nth-child(2) { width: 9.5rem; } th:nth-child(3) { width: 3.8rem; } th:nth-child(4) { width: 5.6rem; }
.num { text-align: right; }
tr.session-row { cursor: pointer; }
tr.session-row.selected { background: #e8efff; }
.row-title { display: block; width: 100%; border: 0; padding: 0; background: none; text-align: left; font-weight: 600; color: #1d232b; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.row-title.untitled { font-weight: 400; font-style: italic; color: var(--muted); }
td .meta, td .owner { color: var(--muted); font-size: 11px; overflow-wrap: anywhere; }
.section-head { display: flex; align-items: center; gap: 8px; flex-wrap: wrap; margin-bottom: 8px; }
.section-head h2 { margin: 0; }
.section-head #new-session { margin-left: auto; }
label.filter { font-size: 12px; color: var(--muted); }
select { font: inherit; font-size: 12px; padding: 2px 4px; border: 1px solid #767f8c; border-radius: 4px; background: #fff; color: #1d232b; }
kbd { font: 11px ui-monospace, Menlo, Consolas, monospace; border: 1px solid #9aa5b4; border-radius: 3px; padding: 0 3px; background: #fff; }
.keys { margin: 0 0 6px; }
#inbox > [data-interaction]:focus { outline: 3px solid var(--accent); outline-offset: 1px; }
:focus-visible { outline: 2px solid var(--accent); outline-offset: 1px; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
@media (max-width: 1100px) { main { grid-template-columns: minmax(0, 1fr); } }
@media (max-width: 640px) {
  #sessions-table thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
  #sessions-table, #sessions-table tbody, #sessions-table tr, #sessions-table td { display: block; width: 100%; }
  #sessions-table tr.session-row { border-bottom: 1px solid var(--line); padding: 4px 0; }
  #sessions-table td { border: 0; padding: 2px 5px; text-align: left; }
  #sessions-table td.num::before { content: "tokens "; color: var(--muted); }
}
.badge { display: inline-block; padding: 0 6px; border-radius: 8px; font-size: 11px; background: #e6e8eb; }
.badge.state-running, .badge.state-waiting { background: #d5f5dd; color: #135d27; }
.badge.state-waiting { background: #fff1cc; color: #7a5300; }
.badge.state-stalled, .badge.state-failed { background: #fbe0dd; color: #a4251a; }
.pool-table { width: 100%; border-collapse: collapse; }
.pool-short td:first-child::before { content: "\u25cf "; color: #a4251a; }
.pool-filling td:first-child::before { content: "\u25cf "; color: #7a5300; }
.pool-warm td:first-child::before { content: "\u25cf "; color: #135d27; }
.mono, .text, pre { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 12px; }
.text { white-space: pre-wrap; overflow-wrap: anywhere; }
#timeline { display: flex; flex-direction: column; gap: 6px; max-height: 62vh; overflow: auto; }
#earlier { display: flex; flex-direction: column; gap: 6px; margin-bottom: 6px; }
.earlier-pages, .earlier-page, .earlier-turn { display: flex; flex-direction: column; gap: 6px; }
.earlier-turn { border-left: 3px solid #d0d7e2; padding-left: 6px; }
.earlier-turn > .internal { display: none; }
.entry { padding: 6px 8px; border-radius: 4px; background: #f7f8fa; overflow-wrap: anywhere; }
.entry .label { font-size: 11px; color: var(--muted); margin-right: 6px; }
.entry.you { background: #eef3ff; }
.entry.message { background: #fff; border: 1px solid var(--line); white-space: pre-wrap; }
.entry.tool { background: #fbf6e9; }
.entry.settled, .entry.quiet { background: transparent; color: var(--muted); font-size: 12px; }
.entry.generic pre { margin: 4px 0 0; white-space: pre-wrap; }
.interaction { border: 1px solid #e0b44c; background: #fffaf0; padding: 8px; border-radius: 4px; margin-bottom: 6px; }
.interaction .outcome { font-weight: 600; margin-left: 6px; }
#detail-title { text-transform: none; letter-spacing: 0; color: #1d232b; font-weight: 400; }
.table-wrap { overflow-x: auto; }
.interaction.settled-card { border-color: var(--line); background: #f7f8fa; }
.interaction .refused, #notice.refused { color: #a4251a; font-weight: 600; }
.actions { display: flex; gap: 6px; margin-top: 6px; flex-wrap: wrap; }
button { font: inherit; padding: 4px 10px; border-radius: 4px; border: 1px solid #9aa5b4; background: #fff; cursor: pointer; }
button.primary { background: var(--accent); border-color: var(--accent); color: #fff; }
textarea, input { font: inherit; width: 100%; padding: 6px; border: 1px solid #9aa5b4; border-radius: 4px; }
#composer { display: flex; gap: 6px; margin-top: 8px; align-items: flex-start; }
#composer textarea { height: 54px; }
.muted { color: var(--muted); font-size: 12px; }
.hidden { display: none; }
.interaction .summary { margin: 4px 0; }
.interaction .subject .category { font-weight: 600; }
.detail { margin: 6px 0; padding: 6px; background: #fff; border: 1px solid var(--line); border-radius: 4px; }
.detail-row { margin: 2px 0; }
.detail .label { font-size: 11px; color: var(--muted); margin-right: 6px; }
.detail pre { margin: 2px 0; white-space: pre-wrap; overflow-wrap: anywhere; max-height: none; }
.detail-list { margin: 2px 0; padding-left: 18px; }
.grant-network { font-weight: 600; color: #a4251a; }
.scope { margin: 4px 0; }
fieldset.question { border: 1px solid var(--line); border-radius: 4px; margin: 4px 0; padding: 4px 8px; }
label.choice { display: block; }
label.choice input { width: auto; margin-right: 6px; }
${TIMELINE_STYLE}`;

function sha256(text: string): string {
  return `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
}

export interface RenderedPage {
  readonly html: string;
  readonly headers: Readonly<Record<string, string>>;
}

export function renderPage(): RenderedPage {
  const script = PAGE_SCRIPT;
  // the bundle is inlined: it must never close its own element
  if (/<\/script/i.test(script)) throw new Error('the console bundle contains </script');
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>relvo console</title>
<style>${STYLE}</style></head>
<body>
<header><h1>relvo console</h1><span class="status" id="status">connecting…</span><button id="new-tab">Another tab</button></header>
<div id="login" class="hidden"><section><h2>Token</h2>
<p class="muted" id="login-why"></p>
<p class="muted">Open a fresh address from the console (each works once, for a short while), or paste the console's token.</p>
<label for="token-input" class="visually-hidden">Token</label><input id="token-input" type="password" autocomplete="off"><div class="actions"><button id="token-save" class="primary">Use token</button></div></section></div>
<main id="app">
<div class="side">
<section aria-labelledby="inbox-heading"><h2 id="inbox-heading" tabindex="-1">Inbox</h2>
<p class="muted keys" id="inbox-keys">Keys on a focused card: <kbd>a</kbd> approve · <kbd>s</kbd> approve for the session · <kbd>d</kbd> deny · <kbd>Ctrl</kbd>+<kbd>Enter</kbd> send an answer · <kbd>j</kbd>/<kbd>k</kbd> next/previous card · <kbd>i</kbd> (anywhere) first card</p>
<div id="inbox" aria-describedby="inbox-keys"><p class="muted">Nothing waits for an answer.</p></div></section>
<section aria-labelledby="sessions-heading"><div class="section-head"><h2 id="sessions-heading">Sessions</h2>
<label class="filter">Show <select id="state-filter"></select></label><span id="sessions-shown" class="muted"></span>
<button id="new-session">New session</button></div>
<div class="table-wrap"><table id="sessions-table"><thead><tr><th scope="col">session</th><th scope="col">state · owner</th><th scope="col" class="num">tokens</th><th scope="col">active</th></tr></thead>
<tbody id="sessions"></tbody></table></div></section>
<section aria-labelledby="pool-heading"><h2 id="pool-heading">Warm pool</h2>
<div id="pool"><p class="muted">No profile prewarms in this process.</p></div></section>
</div>
<section id="detail" aria-labelledby="detail-heading"><h2 id="detail-heading">Timeline <span id="detail-title"></span></h2>
<div id="detail-summary" class="muted"></div>
<div id="earlier" aria-label="Earlier turns"></div>
<div id="timeline"></div>
<div id="composer"><label for="prompt" class="visually-hidden">Prompt</label><textarea id="prompt" placeholder="Ask the agent…"></textarea>
<div class="actions"><button id="send" class="primary">Send</button><button id="interrupt">Interrupt</button><button id="undo">Undo last turn</button></div></div>
<div id="notice" class="muted" role="status"></div>
</section>
</main>
<script>${script}</script>
</body></html>`;
  const csp = [
    "default-src 'none'",
    `script-src ${sha256(script)}`,
    `style-src ${sha256(STYLE)}`,
    "connect-src 'self'",
    "img-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
  return {
    html,
    headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': csp },
  };
}
