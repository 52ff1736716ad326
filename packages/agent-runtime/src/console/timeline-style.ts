/**
 * The style of the timeline's entries (browser/render.ts and the modules it draws with),
 * appended to the page's style and admitted by the same hash.
 */
export const TIMELINE_STYLE = `
#timeline > .internal { display: none; }
#timeline.show-internal > .internal { display: block; }
.entry.internal { background: transparent; color: var(--muted); font-size: 11px; padding: 1px 8px; }
.internal-toggle { font-size: 12px; padding: 2px 8px; margin-bottom: 6px; }
.entry.message.md { white-space: normal; }
.md p, .md .md-p { margin: 0 0 6px; }
.md > :last-child { margin-bottom: 0; }
.md .md-heading { font-weight: 700; margin: 6px 0 4px; }
.md .md-h1 { font-size: 16px; }
.md .md-h2 { font-size: 15px; }
.md code, .md-code { background: #eef0f3; border-radius: 3px; padding: 0 3px; }
.md pre.md-pre { background: #f1f3f6; padding: 6px 8px; border-radius: 4px; overflow-x: auto; white-space: pre; }
.md pre.md-pre code { background: none; padding: 0; }
.md blockquote { margin: 4px 0; padding-left: 10px; border-left: 3px solid var(--line); color: #3b4552; }
.md ul, .md ol { margin: 2px 0 6px; padding-left: 22px; }
.md table { width: auto; margin: 4px 0; }
.md th, .md td { border: 1px solid var(--line); white-space: normal; }
.md-target, .md-image { color: var(--muted); font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 11px; overflow-wrap: anywhere; }
.md a { color: var(--accent); }
.entry.tool { background: #fbf6e9; padding: 4px 8px; }
.entry.tool summary { cursor: pointer; display: flex; flex-wrap: wrap; gap: 8px; align-items: baseline; }
.shell-line, .tool-what { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 12px; overflow-wrap: anywhere; }
.tool-state { font-size: 11px; font-weight: 600; padding: 0 6px; border-radius: 8px; background: #e6e8eb; }
.state-done .tool-state { background: #d5f5dd; color: #135d27; }
.state-failed .tool-state, .state-declined .tool-state { background: #fbe0dd; color: #a4251a; }
.state-running .tool-state { background: #fff1cc; color: #6b4800; }
.exit, .duration, .output-size { font-size: 11px; color: var(--muted); }
.exit.exit-fail { color: #a4251a; font-weight: 600; }
.tool-body { margin-top: 4px; }
.entry.diff { background: #fff; border: 1px solid var(--line); }
.diff-head { display: flex; gap: 8px; align-items: baseline; margin-bottom: 4px; }
.diff-file { margin: 4px 0; }
.diff-file summary { cursor: pointer; font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 12px; }
.diff-change { color: var(--muted); }
.count-add { color: #135d27; }
.count-del { color: #a4251a; }
pre.diff-lines { margin: 4px 0 0; padding: 4px 0; background: #fafbfc; border: 1px solid var(--line); border-radius: 4px; overflow-x: auto; white-space: pre; }
.diff-line { display: inline-block; min-width: 100%; text-decoration: none; padding: 0 8px; }
ins.diff-add { background: #dcf5e2; color: #0f4d20; }
del.diff-del { background: #fbe3e0; color: #8a1f15; }
.diff-hunk { color: #4a5870; background: #eef3ff; }
.diff-sign { display: inline-block; width: 1.2em; user-select: none; }
.entry.plan { background: #f4f7fb; }
.plan-steps { list-style: none; margin: 4px 0 0; padding: 0; }
.plan-step[data-status="completed"] .step-text { text-decoration: line-through; color: var(--muted); }
.plan-step[data-status="in_progress"] .step-text { font-weight: 600; }
.plan-step input { width: auto; margin: 0 6px 0 0; }
.step-state { font-size: 11px; color: var(--muted); }
.entry.reasoning { background: transparent; border-left: 3px solid var(--line); }
.entry.reasoning summary { cursor: pointer; color: var(--muted); font-size: 12px; }
.entry.structured pre, .entry.generic pre { margin: 4px 0 0; white-space: pre-wrap; }
.entry.settled .usage { font-size: 11px; }
.interaction .answer { margin-top: 6px; padding-top: 4px; border-top: 1px dashed var(--line); }
`;
