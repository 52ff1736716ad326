/**
 * Tool items → `run.tool_activity` under the redaction contract of ADR-0014. One tracker per
 * run. Phases come only from frames: `item/started` → invoked, `item/completed` → succeeded or
 * failed. Nothing is invented: an item that never completes gets no terminal phase, an item
 * seen only at completion gets no invoked phase, and a command codex refuses before any item
 * event gets nothing. Output (`aggregatedOutput`, `outputDelta`), diffs and MCP results and
 * argument values are never copied.
 */
import type { JsonObject, ProviderEventInput } from '@relvo-labs/agent-provider';
import type { CodexToolItem } from '../protocol/items.js';
import { bounded, redactToolText, workspacePath } from '../shared/workspace-redaction.js';

export const TOOL_ACTIVITY_MODES = ['none', 'redacted'] as const;
export type ToolActivityMode = (typeof TOOL_ACTIVITY_MODES)[number];

export const TOOL_ACTIVITY_BOUNDS = {
  command: 512,
  text: 256,
  path: 512,
  changes: 32,
  argumentKeys: 32,
  argumentKey: 64,
  /** Distinct items one run tracks; later items are still reported, without dedupe state. */
  items: 4096,
} as const;

export const TOOL_NAMES = {
  commandExecution: 'command',
  fileChange: 'file_change',
  mcpToolCall: 'mcp_tool',
  webSearch: 'web_search',
} as const;

type Phase = 'invoked' | 'succeeded' | 'failed';

interface Tracked {
  readonly activityId: string;
  invoked: boolean;
  ended: boolean;
}

export class ToolActivityTracker {
  readonly #root: string;
  readonly #items = new Map<string, Tracked>();
  #next = 0;

  constructor(workspaceRoot: string) {
    this.#root = workspaceRoot;
  }

  /** The tool item of an `item/started` (decoded at the edge): at most one `invoked` per item. */
  started(item: CodexToolItem | undefined): ProviderEventInput | undefined {
    if (item === undefined) return undefined;
    const tracked = this.#track(item.id);
    if (tracked.invoked || tracked.ended) return undefined;
    tracked.invoked = true;
    return this.#event(item, 'invoked', tracked.activityId, false);
  }

  /** The tool item of an `item/completed`: at most one terminal phase, for a terminal status. */
  completed(item: CodexToolItem | undefined): ProviderEventInput | undefined {
    if (item === undefined) return undefined;
    const phase = terminalPhase(item);
    if (phase === undefined) return undefined;
    const tracked = this.#track(item.id);
    if (tracked.ended) return undefined;
    tracked.ended = true;
    return this.#event(item, phase, tracked.activityId, true);
  }

  #track(itemId: string): Tracked {
    const known = this.#items.get(itemId);
    if (known !== undefined) return known;
    const tracked: Tracked = { activityId: `tool-${++this.#next}`, invoked: false, ended: false };
    if (this.#items.size < TOOL_ACTIVITY_BOUNDS.items) this.#items.set(itemId, tracked);
    return tracked;
  }

  #event(item: CodexToolItem, phase: Phase, activityId: string, end: boolean): ProviderEventInput {
    return {
      payload: {
        type: 'run.tool_activity',
        toolName: TOOL_NAMES[item.type],
        phase,
        detail: { activityId, ...detailOf(item, this.#root, end) },
      },
    };
  }
}

function terminalPhase(item: CodexToolItem): Phase | undefined {
  // a web search item carries no status: its completion is its success
  if (item.type === 'webSearch') return 'succeeded';
  switch (item.status) {
    case 'completed':
      return item.type === 'mcpToolCall' && item.error != null ? 'failed' : 'succeeded';
    case 'failed':
    case 'declined':
      return 'failed';
    default:
      return undefined;
  }
}

const STATUSES = ['completed', 'failed', 'declined'] as const;

function statusOf(status: string): string {
  return (STATUSES as readonly string[]).includes(status) ? status : 'unknown';
}

function safeInt(value: number | null | undefined): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) ? value : undefined;
}

/** The bounded, redacted detail of one item; `end` adds what only a completion knows. */
function detailOf(item: CodexToolItem, root: string, end: boolean): JsonObject {
  const B = TOOL_ACTIVITY_BOUNDS;
  switch (item.type) {
    case 'commandExecution': {
      const detail: JsonObject = {
        command: redactToolText(unwrapShell(item.command), root, B.command),
      };
      if (item.cwd !== undefined) detail['cwd'] = workspacePath(item.cwd, root, B.path);
      if (!end) return detail;
      detail['status'] = statusOf(item.status);
      const exitCode = safeInt(item.exitCode);
      if (exitCode !== undefined) detail['exitCode'] = exitCode;
      const durationMs = safeInt(item.durationMs);
      if (durationMs !== undefined) detail['durationMs'] = durationMs;
      // a count, never the text (codex's aggregate can miss chunks: docs/protocol.md, "Ordering facts and quirks")
      if (typeof item.aggregatedOutput === 'string')
        detail['outputBytes'] = Buffer.byteLength(item.aggregatedOutput, 'utf8');
      return detail;
    }
    case 'fileChange': {
      const changes = item.changes.slice(0, B.changes).map((change) => {
        const entry: JsonObject = {
          path: workspacePath(change.path, root, B.path),
          kind: changeKind(change.kind.type),
        };
        if (typeof change.kind.move_path === 'string')
          entry['movedTo'] = workspacePath(change.kind.move_path, root, B.path);
        return entry;
      });
      const detail: JsonObject = { changes, changeCount: item.changes.length };
      if (end) detail['status'] = statusOf(item.status);
      return detail;
    }
    case 'mcpToolCall': {
      const detail: JsonObject = {
        server: redactToolText(item.server, root, B.text),
        tool: redactToolText(item.tool, root, B.text),
        argumentKeys: argumentKeys(item.arguments),
      };
      if (!end) return detail;
      detail['status'] = statusOf(item.status);
      const durationMs = safeInt(item.durationMs);
      if (durationMs !== undefined) detail['durationMs'] = durationMs;
      return detail;
    }
    case 'webSearch':
      // item/started carries an empty query: only a non-empty one is reported
      return item.query.length > 0 ? { query: redactToolText(item.query, root, B.text) } : {};
  }
}

const CHANGE_KINDS = ['add', 'delete', 'update'] as const;

export function changeKind(type: string): string {
  return (CHANGE_KINDS as readonly string[]).includes(type) ? type : 'unknown';
}

/** Top-level argument names only, redacted and bounded; values are never read. */
function argumentKeys(args: unknown): string[] {
  if (args === null || typeof args !== 'object' || Array.isArray(args)) return [];
  return Object.keys(args)
    .slice(0, TOOL_ACTIVITY_BOUNDS.argumentKeys)
    .map(
      (key) =>
        bounded(
          redactToolText(key, '', TOOL_ACTIVITY_BOUNDS.argumentKey),
          TOOL_ACTIVITY_BOUNDS.argumentKey,
        ).text,
    );
}

/**
 * Codex reports a command wrapped as `/bin/bash -lc '<script>'`; the script is what a person
 * reads. Only a wrapper whose single-quoted script contains no quote of its own is unwrapped.
 */
export function unwrapShell(command: string): string {
  const match = /^(?:\/usr)?\/bin\/(?:ba|z)?sh -l?c '([^']*)'$/.exec(command);
  return match?.[1] ?? command;
}
