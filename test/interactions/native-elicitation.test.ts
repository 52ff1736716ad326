import { describe, expect, it } from 'vitest';
import { InteractionRegistry } from '../../src/interactions/registry.js';
import { translateElicitation } from '../../src/interactions/native-elicitation.js';
import { fakeOffer, fakeOwner, THREAD, TURN } from '../support/interaction-frames.js';
import { refOf } from '../support/registry-harness.js';
import { ADA_FORM_ANSWERS, UNNAMED_TOOL_APPROVAL } from '../support/elicitation-frames.js';

const ROOT = '/work/ws';
const METHOD = 'mcpServer/elicitation/request';
const SCOPE = { threadId: THREAD, turnId: TURN, serverName: 'elicit', environmentId: null };

/** codex's own approval of an MCP tool call, as 0.171.0 sends it under on-request. */
const toolApproval = {
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
const form = {
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

const urlRequest = {
  ...SCOPE,
  mode: 'url',
  _meta: null,
  message: 'Open this page to continue',
  url: 'https://example.invalid/consent',
  elicitationId: 'el-url-1',
};

function harness(showElicitationUrls = false) {
  const owner = fakeOwner('run-1');
  const registry = new InteractionRegistry({
    bridges: { approvals: false, questions: false, elicitations: true },
    workspaceRoot: ROOT,
    showElicitationUrls,
    resolveOwner: () => ({ ok: true, owner }),
  });
  return { owner, registry };
}

function raise(params: unknown, showUrls = false) {
  const h = harness(showUrls);
  const { offer, log } = fakeOffer(METHOD, params);
  expect(h.registry.handleServerRequest(offer)).toBe(true);
  const event = h.owner.events[0];
  const request =
    event?.payload.type === 'interaction.requested' ? event.payload.request : undefined;
  return { ...h, log, ref: refOf(event), request };
}

describe('MCP tool-call approval', () => {
  it('is a tool approval naming server and tool, with codex session scope', () => {
    const { request } = raise(toolApproval);
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
      ...toolApproval,
      _meta: { ...toolApproval._meta, tool_params: { s: 'a'.repeat(16_000) } },
    };
    const h = harness(false);
    const { offer } = fakeOffer(METHOD, long);
    h.registry.handleServerRequest(offer);
    expect(h.owner.events.map((e) => e.payload.type)).not.toContain('interaction.requested');
    const fits = {
      ...toolApproval,
      _meta: { ...toolApproval._meta, tool_params: { s: 'a'.repeat(15_000) } },
    };
    expect(raise(fits).request).toMatchObject({
      subject: { detail: { arguments: `{"s":"${'a'.repeat(15_000)}"}` } },
    });
  });

  it('a tool argument keeps its dotted words: only a message loses bare addresses', () => {
    const { request } = raise({
      ...toolApproval,
      _meta: {
        ...toolApproval._meta,
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
    const r = raise(toolApproval);
    await r.registry.respond(r.ref, { kind: 'approval', ...answer });
    expect(r.log.responded).toEqual([native]);
  });

  it('without `session` in persist only once is offered', () => {
    const { request } = raise({ ...toolApproval, _meta: { ...toolApproval._meta, persist: [] } });
    expect(request?.kind === 'approval' && request.allowedModes).toEqual(['once']);
  });
});

describe('MCP form elicitation → question set', () => {
  it('maps each property to a question kind, the message first, optional ones skippable', () => {
    const { request } = raise(form);
    if (request?.kind !== 'question_set') throw new Error('not a question set');
    const [age, agree, color, name] = request.questions;
    expect(age).toMatchObject({
      key: 'q1',
      prompt: 'The MCP server "elicit" asks: Who are you?\n\nAge (a whole number, at least 0)',
      choices: [{ value: 'skip', label: 'Skip (leave unanswered)' }],
      allowFreeText: true,
    });
    expect(agree?.choices?.map((c) => c.label)).toEqual(['Yes', 'No', 'Skip (leave unanswered)']);
    expect(agree?.allowFreeText).toBe(false);
    expect(color?.choices?.map((c) => c.label)).toEqual([
      'red',
      'green',
      'Skip (leave unanswered)',
    ]);
    expect(name).toMatchObject({
      prompt: 'Name: Your name (at least 1 characters)',
      allowFreeText: true,
    });
    expect(name?.choices).toBeUndefined();
  });

  it('answers become typed content; a skipped property is left out', async () => {
    const r = raise(form);
    await r.registry.respond(r.ref, ADA_FORM_ANSWERS);
    expect(r.log.responded).toEqual([
      { action: 'accept', content: { age: 36, agree: true, name: 'Ada' } },
    ]);
  });

  it('an answer outside the bounds is refused before the settlement is consumed', async () => {
    const r = raise(form);
    const answers = {
      q1: { type: 'text', text: '-1' },
      q2: { type: 'selection', values: ['o2'] },
      q3: { type: 'selection', values: ['o2'] },
      q4: { type: 'text', text: 'Ada' },
    };
    await expect(r.registry.respond(r.ref, { kind: 'question_set', answers })).rejects.toThrow(
      /below_minimum/,
    );
    await r.registry.respond(r.ref, {
      kind: 'question_set',
      answers: { ...answers, q1: { type: 'text', text: '7' } },
    });
    expect(r.log.responded).toEqual([
      { action: 'accept', content: { age: 7, agree: false, color: 'green', name: 'Ada' } },
    ]);
  });

  it.each([
    ['a nested object', { type: 'object', properties: { a: { type: 'object' } } }],
    ['an unknown keyword', { type: 'object', properties: { a: { type: 'string', pattern: 'x' } } }],
    ['no schema object', 'text'],
  ])('a schema with %s is declined with schema_unsupported, never raised', (_, requestedSchema) => {
    const h = harness();
    const { offer, log } = fakeOffer(METHOD, { ...form, requestedSchema });
    h.registry.handleServerRequest(offer);
    expect(h.owner.events).toEqual([]);
    expect(log.rejected).toEqual([
      { code: -32602, message: 'request cannot be represented faithfully (schema_unsupported)' },
    ]);
  });

  it('a retired form is cancelled, exactly once', () => {
    const r = raise(form);
    r.registry.retireRun(r.owner);
    r.registry.retireAll('dispose');
    expect(r.log.responded).toEqual([{ action: 'cancel', content: null }]);
    expect(r.owner.events.map((e) => e.payload.type)).toEqual([
      'interaction.requested',
      'interaction.withdrawn',
    ]);
  });

  it('server text is neutralised: controls removed, URLs and absolute paths replaced', () => {
    const { request } = raise({
      ...form,
      message: 'See \u001b[31mhttps://evil.invalid/x\u0007 and /etc/passwd',
    });
    if (request?.kind !== 'question_set') throw new Error('not a question set');
    const prompt = request.questions[0]?.prompt ?? '';
    expect(prompt).toContain('<url>  and <outside-workspace>');
    expect(prompt).not.toContain('evil.invalid');
    expect(JSON.stringify(request)).not.toContain('\u001b');
  });
});

describe('MCP URL elicitation → approval', () => {
  it('withholds the address unless the host opted in', () => {
    const withheld = raise(urlRequest).request;
    expect(JSON.stringify(withheld)).not.toContain('example.invalid');
    expect(withheld).toMatchObject({
      subject: { detail: { server: 'elicit', urlWithheld: true } },
      allowedModes: ['once'],
    });
    const shown = raise(urlRequest, true).request;
    expect(shown).toMatchObject({
      subject: {
        summary:
          'The MCP server "elicit" asks you to open a web page: https://example.invalid/consent',
        detail: { url: 'https://example.invalid/consent' },
      },
    });
  });

  it('a shown address keeps no credentials: userinfo and secret-named parameters redacted', () => {
    const r = raise(
      {
        ...urlRequest,
        url: 'https://user:PASSWORD@evil.example/consent?token=TOKEN1&lang=en#access_token=TOKEN2',
        message: 'or go to evil.example/login?code=CODE3 yourself',
      },
      true,
    );
    const everything = JSON.stringify(r.owner.events);
    for (const secret of ['PASSWORD', 'user:', 'TOKEN1', 'TOKEN2', 'CODE3'])
      expect(everything).not.toContain(secret);
    const shown =
      'https://[redacted]@evil.example/consent?token=[redacted]&lang=en#access_token=[redacted]';
    expect(r.request).toMatchObject({
      subject: {
        summary: `The MCP server "elicit" asks you to open a web page: ${shown}`,
        detail: { url: shown, message: 'or go to <url> yourself' },
      },
    });
  });

  it('an address without a scheme in a message is recognised and replaced', () => {
    const r = raise({
      ...urlRequest,
      message:
        'visit evil.example/x then user:pw@evil.example or www.evil.example \u001b[0mevil.example/y',
    });
    expect(r.request).toMatchObject({
      subject: { detail: { message: 'visit <url> then <url> or <url>  <url>' } },
    });
    expect(JSON.stringify(r.owner.events)).not.toContain('evil.example');
  });

  it('accept and deny map to the native actions', async () => {
    const a = raise(urlRequest);
    await a.registry.respond(a.ref, { kind: 'approval', decision: 'approved', mode: 'once' });
    expect(a.log.responded).toEqual([{ action: 'accept', content: null }]);
    const d = raise(urlRequest);
    await d.registry.respond(d.ref, { kind: 'approval', decision: 'denied' });
    expect(d.log.responded).toEqual([{ action: 'decline', content: null }]);
  });
});

describe('refusals', () => {
  it.each([
    ['not_turn_scoped', { ...form, turnId: null }],
    ['mode_unsupported', { ...form, mode: 'openai/form' }],
    ['mode_unsupported', { ...form, _meta: { codex_approval_kind: 'something_else' } }],
    ['malformed', { ...urlRequest, url: 'javascript:alert(1)' }],
    ['malformed', { ...form, extra: true }],
  ])('%s', (token, params) => {
    expect(translateElicitation(params, { workspaceRoot: ROOT, showUrls: true })).toEqual({
      ok: false,
      token,
    });
  });
});

describe('MCP tool-call approval from a release whose _meta names no tool (before 0.167)', () => {
  /** As 0.153.4–0.166.0 send it: no `tool_name`, no `tool_params_display`. */
  const unnamed = { ...toolApproval, ...UNNAMED_TOOL_APPROVAL };
  const options = (call: { tool: string; arguments: unknown } | undefined) => ({
    workspaceRoot: ROOT,
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
    expect(translateElicitation(unnamed, { workspaceRoot: ROOT, showUrls: false })).toEqual({
      ok: false,
      token: 'no_reviewable_subject',
    });
  });

  it('a named tool is never replaced by the call in flight', () => {
    const t = translateElicitation(toolApproval, options({ tool: 'other', arguments: {} }));
    expect(
      t.ok && t.interaction.request.kind === 'approval' && t.interaction.request.subject.detail,
    ).toMatchObject({
      tool: 'plain',
    });
  });
});
