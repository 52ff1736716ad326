/**
 * The runtime never stores an envelope its own schema refuses: a workspace ownership the SPI
 * does not know is refused at openSession, and the log itself refuses to stage any envelope
 * that would not parse on read.
 */
import { createScriptedProvider } from '@relvo-labs/agent-provider/testing';
import {
  createAgentRuntime,
  createMemoryEventStore,
  isRuntimeError,
  parseEventEnvelope,
  type EventPayload,
} from '@relvo-labs/agent-runtime';
import { describe, expect, it } from 'vitest';
import { systemClock } from '../src/clock.js';
import { randomId } from '../src/ids.js';
import { EventWriter, SessionLog } from '../src/session/log.js';
import { history, onCleanup, tempDir, TWO_SCRIPTED_PROFILES } from './support.js';

describe('an envelope the schema refuses is never stored', () => {
  it('an unknown workspace ownership is refused at openSession, typed, and nothing is stored', async () => {
    const runtime = await createAgentRuntime({
      providers: { scripted: () => createScriptedProvider().provider },
      config: TWO_SCRIPTED_PROFILES,
    });
    onCleanup(() => runtime.shutdown());
    const error = await runtime
      .openSession({ workspace: { root: tempDir(), ownership: 'stolen' as never } })
      .catch((e: unknown) => e);
    expect(isRuntimeError(error) && [error.reason, error.error.retryable]).toEqual([
      'workspace_invalid',
      false,
    ]);
    expect(isRuntimeError(error) && error.error.details?.allowed).toEqual(['borrowed', 'managed']);
    expect(await runtime.listSessions()).toEqual([]);
    // a valid session afterwards is stored, and every stored envelope parses
    const session = await runtime.openSession({ workspace: tempDir() });
    for (const envelope of await history(runtime, session.id)) {
      expect(() => parseEventEnvelope(envelope)).not.toThrow();
    }
  });

  it('the log refuses to stage an invalid envelope and stops the session there, with no gap', async () => {
    const store = createMemoryEventStore();
    await store.claim();
    const log = new SessionLog(new EventWriter(store, systemClock, randomId), 'ses_guard');
    const opened = {
      type: 'session.opened',
      defaultProfile: 'p',
      workspace: { root: '/w', ownership: 'stolen' },
    } as unknown as EventPayload;
    log.append(opened);
    log.append({ type: 'session.state_changed', from: 'opening', to: 'ready' });
    const error: unknown = await log.durable().catch((e: unknown) => e);
    expect(isRuntimeError(error) && [error.reason, error.code]).toEqual([
      'envelope_invalid',
      'internal',
    ]);
    expect(await store.getSession('ses_guard')).toBeUndefined();
  });
});
