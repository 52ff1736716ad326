/**
 * One timeline entry per tool call, updated in place as its phases arrive (invoked, then
 * succeeded or failed). A command reads as a shell line with its exit code, duration and output
 * size; everything else the provider put in the detail is one click away, collapsed, so
 * nothing is dropped. Output itself is never in the log (the provider publishes its size only).
 */
import { renderDetail } from './detail.js';
import { el, isRecord, str } from './dom.js';

export interface ToolCall {
  readonly toolName: string;
  phase: string;
  /** The invoked phase's detail merged with the terminal phase's (later keys win). */
  detail: Record<string, unknown>;
}

/** Keys the summary line shows; the rest go to the collapsed body. */
const IN_LINE: Readonly<Record<string, readonly string[]>> = {
  command: ['activityId', 'command', 'exitCode', 'durationMs', 'outputBytes'],
  file_change: ['activityId', 'changes'],
  mcp_tool: ['activityId', 'server', 'tool', 'argumentKeys', 'durationMs'],
  web_search: ['activityId', 'query'],
};

export function bytesText(n: number): string {
  if (n < 1024) return `${String(n)} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MiB`;
}

export function durationText(ms: number): string {
  return ms < 1000 ? `${String(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** What state the call is in, in words (a declined call says so, not only "failed"). */
function stateText(call: ToolCall): string {
  if (call.phase === 'invoked') return 'running';
  if (call.phase === 'succeeded') return 'done';
  const status = call.detail['status'];
  return status === 'declined' ? 'declined' : 'failed';
}

function facts(call: ToolCall): HTMLElement[] {
  const d = call.detail;
  const out: HTMLElement[] = [];
  const exit = num(d['exitCode']);
  if (exit !== undefined)
    out.push(el('span', `exit ${exit === 0 ? 'exit-ok' : 'exit-fail'}`, `exit ${String(exit)}`));
  const ms = num(d['durationMs']);
  if (ms !== undefined) out.push(el('span', 'duration', durationText(ms)));
  const bytes = num(d['outputBytes']);
  if (bytes !== undefined) out.push(el('span', 'output-size', `${bytesText(bytes)} of output`));
  return out;
}

function changeText(change: unknown): string {
  if (!isRecord(change)) return str(change);
  const moved = typeof change['movedTo'] === 'string' ? ` → ${change['movedTo']}` : '';
  return `${str(change['kind'], '?')} ${str(change['path'], '?')}${moved}`;
}

/** The line a person reads first: what was run or touched. */
function headline(call: ToolCall): HTMLElement {
  const d = call.detail;
  switch (call.toolName) {
    case 'command':
      return el('code', 'shell-line', `$ ${str(d['command'], '(no command line)')}`);
    case 'file_change': {
      const changes = Array.isArray(d['changes']) ? d['changes'] : [];
      return el('span', 'tool-what', `file change: ${changes.map(changeText).join(', ')}`);
    }
    case 'mcp_tool': {
      const keys = Array.isArray(d['argumentKeys']) ? d['argumentKeys'].map(String) : [];
      return el(
        'code',
        'tool-what',
        `${str(d['server'], '?')}.${str(d['tool'], '?')}(${keys.join(', ')})`,
      );
    }
    case 'web_search':
      return el('span', 'tool-what', `web search: ${str(d['query'], '…')}`);
    default:
      return el('span', 'tool-what', call.toolName);
  }
}

/** Draws (or redraws) the entry of `call`; an entry a person opened stays open. */
export function drawTool(node: HTMLElement, call: ToolCall): void {
  const state = stateText(call);
  node.className = `entry tool tool-${call.toolName} state-${state}`;
  node.dataset.phase = call.phase;
  let box = node.querySelector(':scope > details');
  if (!(box instanceof HTMLDetailsElement)) {
    box = el('details', 'tool-details');
    node.replaceChildren(box);
  }
  const summary = el('summary');
  summary.append(el('span', `tool-state`, state), headline(call), ...facts(call));
  const skip = IN_LINE[call.toolName] ?? ['activityId'];
  const rest: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(call.detail)) if (!skip.includes(k)) rest[k] = v;
  const body = el('div', 'tool-body');
  if (Object.keys(rest).length > 0) body.append(renderDetail(rest));
  if (call.toolName === 'command')
    body.append(el('div', 'muted', 'The output itself is not recorded, only its size.'));
  box.replaceChildren(summary, body);
}
