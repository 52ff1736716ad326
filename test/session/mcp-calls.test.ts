/**
 * The MCP calls a turn has in flight (src/session/mcp-calls.ts): one per server is a subject,
 * two are ambiguous, a completed one is gone, and more than the bound answers nothing.
 */
import { describe, expect, it } from 'vitest';
import type { CodexToolItem } from '../../src/protocol/items.js';
import { McpCallsInFlight } from '../../src/session/mcp-calls.js';

const call = (id: string, server: string, tool: string): CodexToolItem => ({
  type: 'mcpToolCall',
  id,
  server,
  tool,
  status: 'inProgress',
  arguments: { id },
});

describe('McpCallsInFlight', () => {
  it('one call to a server is its subject; another server does not interfere', () => {
    const calls = new McpCallsInFlight();
    calls.started(call('a', 'elicit', 'plain'));
    calls.started(call('b', 'other', 'x'));
    expect(calls.only('elicit')).toEqual({
      server: 'elicit',
      tool: 'plain',
      arguments: { id: 'a' },
    });
    expect(calls.only('nobody')).toBeUndefined();
  });

  it('two calls to one server are ambiguous until one completes', () => {
    const calls = new McpCallsInFlight();
    calls.started(call('a', 'elicit', 'plain'));
    calls.started(call('b', 'elicit', 'ask_form'));
    expect(calls.only('elicit')).toBeUndefined();
    calls.completed('a');
    expect(calls.only('elicit')?.tool).toBe('ask_form');
    calls.completed('b');
    expect(calls.only('elicit')).toBeUndefined();
  });

  it('other items are not calls', () => {
    const calls = new McpCallsInFlight();
    calls.started(undefined);
    calls.started({ type: 'webSearch', id: 'w', query: 'q' });
    expect(calls.only('elicit')).toBeUndefined();
  });

  it('past the bound it names nothing rather than a call it may have missed', () => {
    const calls = new McpCallsInFlight();
    for (let i = 0; i < 64; i++) calls.started(call(`c${i}`, `s${i}`, 't'));
    calls.started(call('late', 'elicit', 'plain'));
    expect(calls.only('elicit')).toBeUndefined();
    expect(calls.only('s0')).toBeUndefined();
  });
});
