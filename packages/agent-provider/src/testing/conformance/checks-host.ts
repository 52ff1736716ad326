import type { HostToolDefinition } from '../../schemas/host-tools.js';
import { fail } from './context.js';
import { recorder } from './recorder.js';
import { APPLIES, type CheckDefinition } from './plan.js';

/*
 * What a host adds to a session (docs/spi.md §6, §11.4): tools at createSession and context
 * at any time. Undeclared, both are refused definitely, so a host never believes a tool or a
 * note reached a model that never saw it.
 */

const TOOL: HostToolDefinition = {
  name: 'conformance_tool',
  description: 'a conformance check tool',
  inputSchema: { type: 'object', properties: { id: { type: 'integer' } } },
};

export const hostChecks: readonly CheckDefinition[] = [
  {
    id: 'session.hostTools',
    area: 'session',
    title:
      'createSession with tools: refused capability_unsupported when undeclared; when declared, unusable definitions are refused invalid_request and valid ones accepted',
    applies: () => APPLIES,
    async run(ctx, plan) {
      const { provider } = ctx.subject;
      const withTools = (tools: readonly HostToolDefinition[]) => {
        const sink = recorder('session');
        return { sink, init: { ...ctx.init(sink), tools } };
      };
      const attempt = async (what: string, tools: readonly HostToolDefinition[]) => {
        const { sink, init } = withTools(tools);
        const result = await ctx.call(what, () => provider.createSession(init));
        // anything opened is the kit's to dispose
        if (result.ok) ctx.sessions.push({ session: result.value, sink, runs: [] });
        return result;
      };
      if (!plan.descriptor.interaction.toolCall.supported) {
        ctx.rejection(
          'createSession with undeclared tools',
          await attempt('undeclared tools', [TOOL]),
          ['capability_unsupported'],
        );
        return;
      }
      ctx.rejection(
        'createSession with duplicate tool names',
        await attempt('duplicate tools', [TOOL, TOOL]),
        ['invalid_request'],
      );
      ctx.rejection(
        'createSession with a tool whose schema is not an object',
        await attempt('non-object schema', [{ ...TOOL, inputSchema: { type: 'string' } }]),
        ['invalid_request'],
      );
      ctx.ok('createSession with declared tools', await attempt('declared tools', [TOOL]));
    },
  },
  {
    id: 'session.injectContext',
    area: 'session',
    title:
      'injectContext: present when declared, valid items taken and malformed ones refused invalid_request; when undeclared absent or refused capability_unsupported',
    applies: () => APPLIES,
    async run(ctx, plan) {
      const { session } = await ctx.openSession();
      const inject = session.injectContext?.bind(session);
      const declared = plan.descriptor.run.injectContext;
      if (inject === undefined) {
        if (declared) fail('run.injectContext is declared but the session has no injectContext');
        return;
      }
      const malformed = [{ type: 'text', role: 'system', text: ctx.marker('context') }] as never;
      ctx.rejection(
        declared ? 'injectContext with malformed items' : 'injectContext (declared unsupported)',
        await ctx.call('injectContext', () => inject(malformed)),
        declared ? ['invalid_request'] : ['capability_unsupported', 'invalid_request'],
      );
      if (declared) {
        const items = [
          { type: 'text' as const, role: 'developer' as const, text: ctx.marker('context') },
        ];
        ctx.ok(
          'injectContext with valid items',
          await ctx.call('injectContext with valid items', () => inject(items)),
        );
      }
    },
  },
];
