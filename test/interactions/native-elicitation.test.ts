/** MCP tool-call approvals codex forwards as elicitations, and the translator's refusals. */
import { describe, expect, it } from 'vitest';
import { translateElicitation } from '../../src/interactions/native-elicitation.js';
import { fakeOffer, TURN } from '../support/interaction-frames.js';
import { UNNAMED_TOOL_APPROVAL } from '../support/elicitation-frames.js';
import * as mcp from '../support/elicitation-requests.js';

describe('MCP tool-call approval', () => {
  it('is a tool approval naming server and tool, with codex session scope', () => {
    const { request } = mcp.raise(mcp.toolApproval);
    expect(request).toEqual({
      kind: 'approval',
      subject: {
        category: 'tool',
        summary: 'Codex requests approval to call the tool "plain" of the MCP server "elicit"',
        detail: { server: 'elicit', tool: 'plain', arguments: '{}' },
      },
      allowedModes: ['once', 'session'],
      riskHint: 'medium',
    });
  });

  it('arguments too long to show whole are not raised: detail_too_large', () => {
    const long = {
      ...mcp.toolApproval,
      _meta: { ...mcp.toolApproval._meta, tool_params: { s: 'a'.repeat(16_000) } },
    };
    const h = mcp.harness(false);
    const { offer } = fakeOffer(mcp.METHOD, long);
    h.registry.handleServerRequest(offer);
    expect(h.owner.events.map((e) => e.payload.type)).not.toContain('interaction.requested');
    const fits = {
      ...mcp.toolApproval,
      _meta: { ...mcp.toolApproval._meta, tool_params: { s: 'a'.repeat(15_000) } },
    };
    expect(mcp.raise(fits).request).toMatchObject({
      subject: { detail: { arguments: `{"s":"${'a'.repeat(15_000)}"}` } },
    });
  });

  it('a tool argument keeps its dotted words: only a message loses bare addresses', () => {
    const { request } = mcp.raise({
      ...mcp.toolApproval,
      _meta: {
        ...mcp.toolApproval._meta,
        tool_params: { path: 'notes.md', url: 'https://x.example/a' },
      },
    });
    expect(request).toMatchObject({
      subject: { detail: { arguments: '{"path":"notes.md","url":"<url>"}' } },
    });
  });

  it.each([
    [
      { decision: 'approved', mode: 'once' },
      { action: 'accept', content: null },
    ],
    [
      { decision: 'approved', mode: 'session' },
      { action: 'accept', content: null, _meta: { persist: 'session' } },
    ],
    [{ decision: 'denied' }, { action: 'decline', content: null }],
  ])('%j → %j', async (answer, native) => {
    const r = mcp.raise(mcp.toolApproval);
    await r.registry.respond(r.ref, { kind: 'approval', ...answer });
    expect(r.log.responded).toEqual([native]);
  });

  it('without `session` in persist only once is offered', () => {
    const { request } = mcp.raise({
      ...mcp.toolApproval,
      _meta: { ...mcp.toolApproval._meta, persist: [] },
    });
    expect(request?.kind === 'approval' && request.allowedModes).toEqual(['once']);
  });
});

describe('refusals', () => {
  it.each([
    ['not_turn_scoped', { ...mcp.form, turnId: null }],
    ['mode_unsupported', { ...mcp.form, mode: 'openai/form' }],
    ['mode_unsupported', { ...mcp.form, _meta: { codex_approval_kind: 'something_else' } }],
    ['malformed', { ...mcp.urlRequest, url: 'javascript:alert(1)' }],
    ['malformed', { ...mcp.form, extra: true }],
  ])('%s', (token, params) => {
    expect(translateElicitation(params, { workspaceRoot: mcp.ROOT, showUrls: true })).toEqual({
      ok: false,
      token,
    });
  });
});

describe('MCP tool-call approval from a release whose _meta names no tool (before 0.167)', () => {
  /** As 0.153.4–0.166.0 send it: no `tool_name`, no `tool_params_display`. */
  const unnamed = { ...mcp.toolApproval, ...UNNAMED_TOOL_APPROVAL };
  const options = (call: { tool: string; arguments: unknown } | undefined) => ({
    workspaceRoot: mcp.ROOT,
    showUrls: false,
    mcpCallInFlight: (turnId: string, server: string) =>
      turnId === TURN && server === 'elicit' ? call : undefined,
  });

  it('names the one call in flight to that server', () => {
    const t = translateElicitation(
      { ...unnamed, _meta: { ...unnamed._meta, tool_params: undefined } },
      options({ tool: 'plain', arguments: { n: 1 } }),
    );
    expect(t.ok && t.interaction.request).toMatchObject({
      kind: 'approval',
      subject: {
        category: 'tool',
        detail: { server: 'elicit', tool: 'plain', arguments: '{"n":1}' },
      },
    });
  });

  it('with no call, or an ambiguous one, there is no subject: refused, never guessed from prose', () => {
    expect(translateElicitation(unnamed, options(undefined))).toEqual({
      ok: false,
      token: 'no_reviewable_subject',
    });
    expect(translateElicitation(unnamed, { workspaceRoot: mcp.ROOT, showUrls: false })).toEqual({
      ok: false,
      token: 'no_reviewable_subject',
    });
  });

  it('a named tool is never replaced by the call in flight', () => {
    const t = translateElicitation(mcp.toolApproval, options({ tool: 'other', arguments: {} }));
    expect(
      t.ok && t.interaction.request.kind === 'approval' && t.interaction.request.subject.detail,
    ).toMatchObject({
      tool: 'plain',
    });
  });
});
