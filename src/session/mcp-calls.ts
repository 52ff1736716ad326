/**
 * The MCP tool calls of one turn that codex started and has not completed. Releases before
 * 0.167 send a tool-call approval (`mcpServer/elicitation/request`, `_meta.codex_approval_kind:
 * "mcp_tool_call"`) that names the server but not the tool; codex starts the call's item just
 * before it asks. The elicitation bridge reads the call from here then, and only when exactly one
 * call to that server is in flight: two would make the subject a guess.
 */
import type { CodexToolItem } from '../protocol/items.js';

/** The most calls remembered for one turn; a turn with more in flight gets no subject from here. */
const MAX_IN_FLIGHT = 64;

export interface McpCallInFlight {
  readonly server: string;
  readonly tool: string;
  readonly arguments: unknown;
}

export class McpCallsInFlight {
  readonly #calls = new Map<string, McpCallInFlight>();
  #overflowed = false;

  started(item: CodexToolItem | undefined): void {
    if (item?.type !== 'mcpToolCall') return;
    if (this.#calls.size >= MAX_IN_FLIGHT) {
      this.#overflowed = true;
      return;
    }
    this.#calls.set(item.id, { server: item.server, tool: item.tool, arguments: item.arguments });
  }

  completed(itemId: string): void {
    this.#calls.delete(itemId);
  }

  /** The one call in flight to `server`; undefined when there is none, or more than one. */
  only(server: string): McpCallInFlight | undefined {
    if (this.#overflowed) return undefined;
    let found: McpCallInFlight | undefined;
    for (const call of this.#calls.values()) {
      if (call.server !== server) continue;
      if (found !== undefined) return undefined;
      found = call;
    }
    return found;
  }
}
