import { describe, expect, it } from 'vitest';
import {
  canDeclareHostTools,
  canInjectContext,
  checkResponseAgainstRequest,
  contextItemsSchema,
  defineProviderDescriptor,
  hostToolsSchema,
  interactionRequestSchema,
  interactionResponseSchema,
  HOST_TOOL_BOUNDS,
} from '../src/index.js';

const TOOL = {
  name: 'lookup_ticket',
  description: 'Look up a ticket',
  inputSchema: { type: 'object', properties: { id: { type: 'integer' } } },
};

const base = {
  providerId: 'demo',
  providerVersion: '1.0.0',
  displayName: 'Demo',
  workspace: { requires: 'directory' as const },
};

describe('host tool definitions', () => {
  it('accept unique, bounded tools whose input schema describes an object', () => {
    expect(hostToolsSchema.safeParse([TOOL]).success).toBe(true);
    expect(hostToolsSchema.safeParse([]).success).toBe(true);
  });

  it.each([
    ['a duplicate name', [TOOL, TOOL]],
    ['a name with a space', [{ ...TOOL, name: 'bad name' }]],
    ['a name over 64', [{ ...TOOL, name: 'x'.repeat(65) }]],
    ['an empty description', [{ ...TOOL, description: '' }]],
    ['a schema that is not an object type', [{ ...TOOL, inputSchema: { type: 'array' } }]],
    ['an unknown key', [{ ...TOOL, strict: true }]],
    ['too many tools', Array.from({ length: 65 }, (_, i) => ({ ...TOOL, name: `t${String(i)}` }))],
    [
      'a schema over the bound',
      [
        {
          ...TOOL,
          inputSchema: { type: 'object', description: 'x'.repeat(HOST_TOOL_BOUNDS.inputSchema) },
        },
      ],
    ],
  ])('refuse %s', (_, tools) => {
    expect(hostToolsSchema.safeParse(tools).success).toBe(false);
  });
});

describe('tool_call interactions', () => {
  const request = { kind: 'tool_call', tool: 'lookup_ticket', input: { id: 42 } } as const;

  it('a request carries the tool and a bounded JSON input', () => {
    expect(interactionRequestSchema.parse(request)).toEqual(request);
    const big = { ...request, input: 'x'.repeat(HOST_TOOL_BOUNDS.input) };
    expect(interactionRequestSchema.safeParse(big).success).toBe(false);
  });

  it.each([
    [{ type: 'text', text: 'open' }],
    [{ type: 'text', text: '' }],
    [{ type: 'json', value: { status: 'open' } }],
    [{ type: 'failure', code: 'unavailable', message: 'service down' }],
    [{ type: 'failure', code: 'expired' }],
  ])('answers %j', (output) => {
    const response = interactionResponseSchema.parse({ kind: 'tool_call', output });
    expect(checkResponseAgainstRequest(request, response)).toBeUndefined();
  });

  it.each([
    [{ type: 'failure', code: 'crashed' }],
    [{ type: 'failure', code: 'failed', message: '' }],
    [{ type: 'text', text: 'x'.repeat(HOST_TOOL_BOUNDS.result + 1) }],
    [{ type: 'json', value: 'x'.repeat(HOST_TOOL_BOUNDS.result) }],
    [{ type: 'text' }],
  ])('refuses the output %#', (output) => {
    expect(interactionResponseSchema.safeParse({ kind: 'tool_call', output }).success).toBe(false);
  });

  it('an approval does not answer a tool call', () => {
    expect(checkResponseAgainstRequest(request, { kind: 'approval', decision: 'denied' })).toMatch(
      /expected a tool_call response/,
    );
  });
});

describe('capability checks', () => {
  it('host tools: none always; some only when declared, within maxTools', () => {
    const off = defineProviderDescriptor(base);
    expect(canDeclareHostTools(off, 0).ok).toBe(true);
    expect(canDeclareHostTools(off, 1)).toMatchObject({
      ok: false,
      error: { code: 'capability_unsupported', details: { capability: 'interaction.toolCall' } },
    });
    const on = defineProviderDescriptor({
      ...base,
      interaction: { toolCall: { supported: true, maxTools: 2 } },
    });
    expect(canDeclareHostTools(on, 2).ok).toBe(true);
    expect(canDeclareHostTools(on, 3)).toMatchObject({
      ok: false,
      error: { details: { capability: 'interaction.toolCall.maxTools', maxTools: 2 } },
    });
  });

  it('injected context: only when declared; items are text for user or developer', () => {
    expect(canInjectContext(defineProviderDescriptor(base)).ok).toBe(false);
    expect(
      canInjectContext(defineProviderDescriptor({ ...base, run: { injectContext: true } })).ok,
    ).toBe(true);
    expect(
      contextItemsSchema.safeParse([{ type: 'text', role: 'developer', text: 'x' }]).success,
    ).toBe(true);
    for (const bad of [
      [],
      [{ type: 'text', role: 'system', text: 'x' }],
      [{ type: 'text', role: 'user', text: '' }],
    ])
      expect(contextItemsSchema.safeParse(bad).success).toBe(false);
  });
});
