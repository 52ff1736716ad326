/** MCP elicitation requests as codex forwards them, and a registry that raises them (ADR-0040). */
import { expect } from 'vitest';
import { InteractionRegistry } from '../../src/interactions/registry.js';
import { fakeOffer, fakeOwner, THREAD, TURN } from './interaction-frames.js';
import { refOf } from './registry-harness.js';

export const ROOT = '/work/ws';
export const METHOD = 'mcpServer/elicitation/request';
const SCOPE = { threadId: THREAD, turnId: TURN, serverName: 'elicit', environmentId: null };

/** codex's own approval of an MCP tool call, as 0.171.0 sends it under on-request. */
export const toolApproval = {
  ...SCOPE,
  mode: 'form',
  _meta: {
    codex_approval_kind: 'mcp_tool_call',
    persist: ['session', 'always'],
    tool_name: 'plain',
    tool_description: 'No elicitation; returns pong',
    tool_params: {},
    tool_params_display: [],
  },
  message: 'Allow the elicit MCP server to run tool "plain"?',
  requestedSchema: { type: 'object', properties: {} },
};

/** A server's form, properties sorted by name as codex forwards them. */
export const form = {
  ...SCOPE,
  mode: 'form',
  _meta: null,
  message: 'Who are you?',
  requestedSchema: {
    type: 'object',
    properties: {
      age: { type: 'integer', title: 'Age', minimum: 0 },
      agree: { type: 'boolean', title: 'Agree', default: false },
      color: { type: 'string', title: 'Colour', enum: ['red', 'green'] },
      name: { type: 'string', title: 'Name', description: 'Your name', minLength: 1 },
    },
    required: ['name'],
  },
};

export const urlRequest = {
  ...SCOPE,
  mode: 'url',
  _meta: null,
  message: 'Open this page to continue',
  url: 'https://example.invalid/consent',
  elicitationId: 'el-url-1',
};

/** A registry bridging elicitations only, with one owner for every request. */
export function harness(showElicitationUrls = false) {
  const owner = fakeOwner('run-1');
  const registry = new InteractionRegistry({
    bridges: { approvals: false, questions: false, elicitations: true },
    workspaceRoot: ROOT,
    showElicitationUrls,
    resolveOwner: () => ({ ok: true, owner }),
  });
  return { owner, registry };
}

/** Offers an elicitation to a fresh harness and expects it raised. */
export function raise(params: unknown, showUrls = false) {
  const h = harness(showUrls);
  const { offer, log } = fakeOffer(METHOD, params);
  expect(h.registry.handleServerRequest(offer)).toBe(true);
  const event = h.owner.events[0];
  const request =
    event?.payload.type === 'interaction.requested' ? event.payload.request : undefined;
  return { ...h, log, ref: refOf(event), request };
}
