/**
 * One line per tool activity, as a person reads it: `$ ls -la ✓ exit 0`. The provider has
 * already redacted and bounded every string (ADR-0014); this only picks fields.
 */
import type { JsonObject, JsonValue } from '@relvo-labs/agent-provider';

export interface ToolActivityLike {
  readonly toolName: string;
  readonly phase: 'invoked' | 'succeeded' | 'failed';
  readonly detail?: JsonObject | undefined;
}

function str(value: JsonValue | undefined): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function subject(activity: ToolActivityLike): string {
  const d = activity.detail ?? {};
  switch (activity.toolName) {
    case 'command':
      return `$ ${str(d.command) ?? '(command)'}`;
    case 'file_change': {
      const changes = Array.isArray(d.changes) ? d.changes : [];
      const first = changes[0];
      const path =
        first !== null && typeof first === 'object' && !Array.isArray(first)
          ? `${str(first.kind) ?? 'change'} ${str(first.path) ?? ''}`.trim()
          : 'file change';
      const count = typeof d.changeCount === 'number' ? d.changeCount : changes.length;
      return `✎ ${path}${count > 1 ? ` (+${count - 1} more)` : ''}`;
    }
    case 'mcp_tool':
      return `⚙ ${[str(d.server), str(d.tool)].filter((x) => x !== undefined).join('.') || 'tool'}`;
    case 'web_search':
      return `⌕ ${str(d.query) ?? 'web search'}`;
    default:
      return `⚙ ${activity.toolName}`;
  }
}

/** The end of an activity: `✓ exit 0`, `✗ exit 2`, `✗ declined`. */
function outcome(activity: ToolActivityLike): string {
  const d = activity.detail ?? {};
  const exit = typeof d.exitCode === 'number' ? ` exit ${d.exitCode}` : '';
  if (activity.phase === 'succeeded') return `✓${exit}`;
  const status = str(d.status);
  return `✗${exit === '' && status !== undefined ? ` ${status}` : exit}`;
}

export function describeToolActivity(activity: ToolActivityLike): string {
  return activity.phase === 'invoked'
    ? `${subject(activity)} …`
    : `${subject(activity)} ${outcome(activity)}`;
}
