/**
 * `session.injectContext` on a hand-driven provider: `context.injected` is committed to the
 * store before the provider gets the items (a held append holds the provider back; a failed one
 * means the provider never gets them), a provider that does not declare `run.injectContext` is
 * refused before anything is recorded, malformed items too, and a provider's refusal comes back
 * typed with the record kept (it says the host asked, as `run.steered` does).
 */
import {
  agentError,
  ProviderRejection,
  type ContextItem,
  type ProviderDescriptor,
} from '@relvo-labs/agent-provider';
import { createMemoryEventStore, type EventStore } from '@relvo-labs/agent-runtime';
import { describe, expect, it } from 'vitest';
import { createManualProvider, manualDescriptor } from './manual-provider.js';
import { typeGatedStore } from './store-wrap.js';
import { rejection, runtimeOnManual, settlesWithin, tempDir } from './support.js';

const NOTE: ContextItem[] = [{ type: 'text', role: 'developer', text: 'HOST NOTE' }];

interface Injected {
  readonly items: readonly ContextItem[];
  /** The payload types the store held when the provider got the items. */
  readonly storedThen: string[];
}

function declaring(injectContext: boolean): ProviderDescriptor {
  const d = manualDescriptor();
  return { ...d, run: { ...d.run, injectContext } };
}

/** A runtime on the manual provider whose sessions take injected context (when `declared`). */
async function injectRuntime(
  options: { declared?: boolean; store?: EventStore; refuse?: boolean } = {},
) {
  const store = options.store ?? createMemoryEventStore();
  const manual = createManualProvider(declaring(options.declared ?? true));
  const injected: Injected[] = [];
  let sessionId = '';
  const create = manual.provider.createSession.bind(manual.provider);
  const provider = {
    ...manual.provider,
    async createSession(init: Parameters<typeof create>[0]) {
      const session = await create(init);
      if (options.declared === false) return session;
      return {
        ...session,
        async injectContext(items: readonly ContextItem[]) {
          const storedThen = (await store.read(sessionId, { fromSequence: 1, limit: 1000 })).map(
            (e) => e.payload.type,
          );
          injected.push({ items, storedThen });
          if (options.refuse === true)
            throw new ProviderRejection(agentError('invalid_request', 'not now'));
        },
      };
    },
  };
  const runtime = await runtimeOnManual(provider, { store });
  const session = await runtime.openSession({ workspace: tempDir() });
  sessionId = session.id;
  const types = async (): Promise<string[]> =>
    (await runtime.readEvents(session.id)).map((e) => e.payload.type);
  return { runtime, session, injected, types };
}

describe('session.injectContext', () => {
  it('records context.injected and makes it durable before the provider gets the items', async () => {
    const { store, hold } = typeGatedStore();
    const gate = hold('context.injected');
    const { session, injected, types, runtime } = await injectRuntime({ store });
    const done = session.injectContext(NOTE);
    await settlesWithin(gate.reached, 'the held append');
    // the append is held: the provider has not been handed anything
    expect(injected).toEqual([]);
    gate.release();
    await settlesWithin(done, 'injectContext');
    expect(injected).toEqual([{ items: NOTE, storedThen: expect.any(Array) as unknown }]);
    expect(injected[0]?.storedThen.at(-1)).toBe('context.injected');
    const events = await runtime.readEvents(session.id);
    expect(events.find((e) => e.payload.type === 'context.injected')?.payload).toEqual({
      type: 'context.injected',
      profile: 'm',
      items: NOTE,
    });
    expect((await types()).filter((t) => t === 'context.injected')).toHaveLength(1);
  });

  it('a store that fails the record: the provider never gets the items, the error is typed', async () => {
    const { store, refuse } = typeGatedStore();
    refuse('context.injected');
    const { session, injected } = await injectRuntime({ store });
    await rejection(session.injectContext(NOTE));
    expect(injected).toEqual([]);
  });

  it('a provider that does not declare run.injectContext is refused, with nothing recorded', async () => {
    const { session, injected, types } = await injectRuntime({ declared: false });
    const refused = await rejection(session.injectContext(NOTE));
    expect([refused.code, refused.reason]).toEqual([
      'capability_unsupported',
      'inject_context_unsupported',
    ]);
    expect(injected).toEqual([]);
    expect(await types()).not.toContain('context.injected');
  });

  it('malformed items and an unknown profile are refused typed, with nothing recorded', async () => {
    const { session, injected, types } = await injectRuntime();
    for (const bad of [
      [],
      [{ type: 'text', role: 'system', text: 'x' }],
      [{ type: 'text', role: 'user', text: '' }],
      Array.from({ length: 65 }, () => NOTE[0]),
    ]) {
      const refused = await rejection(session.injectContext(bad as ContextItem[]));
      expect([refused.code, refused.reason]).toEqual(['invalid_request', 'context_invalid']);
      // the refusal never echoes the text it was handed
      expect(refused.message).not.toContain('HOST NOTE');
    }
    await rejection(session.injectContext(NOTE, { profile: 'nope' }));
    expect(injected).toEqual([]);
    expect(await types()).not.toContain('context.injected');
  });

  it("a provider's refusal comes back typed; the record of the request stays", async () => {
    const { session, injected, types } = await injectRuntime({ refuse: true });
    const refused = await rejection(session.injectContext(NOTE));
    expect([refused.code, refused.reason]).toEqual(['invalid_request', 'provider_rejected']);
    expect(injected).toHaveLength(1);
    expect((await types()).filter((t) => t === 'context.injected')).toHaveLength(1);
  });

  it('is refused once the session is closed', async () => {
    const { session, injected } = await injectRuntime();
    await session.close();
    expect((await rejection(session.injectContext(NOTE))).reason).toBe('session_closed');
    expect(injected).toEqual([]);
  });
});
