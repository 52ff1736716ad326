/**
 * The runtime never stores an envelope its own schema refuses: a workspace ownership the SPI
 * does not know is refused at openSession, and the log itself refuses to stage any envelope
 * that would not parse on read.
 */
import { WIRE_VERSION } from '@relvo-labs/agent-provider';
import { createScriptedProvider } from '@relvo-labs/agent-provider/testing';
import {
  createAgentRuntime,
  createMemoryEventStore,
  isRuntimeError,
  parseEventEnvelope,
  type EventPayload,
} from '@relvo-labs/agent-runtime';
import { describe, expect, it } from 'vitest';
import { systemClock, type RuntimeClock } from '../src/clock.js';
import { randomId, type IdFactory } from '../src/ids.js';
import { SessionLog } from '../src/session/log.js';
import { EventWriter } from '../src/session/writer.js';
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

describe('what the log trusts without testing it again', () => {
  it("the runtime's own ids: every prefix's pattern, none repeated across refills", () => {
    // past two of the event counter's 4096-id steps, and several 256-id refills of a random one
    for (const [prefix, count] of [
      ['evt', 10_000],
      ['run', 1_000],
    ] as const) {
      const seen = new Set<string>();
      for (let i = 0; i < count; i += 1) {
        const id = randomId(prefix);
        expect(id).toMatch(new RegExp(`^${prefix}_[0-9a-f]{32}$`));
        seen.add(id);
      }
      expect(seen.size).toBe(count);
    }
  });

  it('event ids share a random base and count on; session and run ids share nothing guessable', () => {
    const a = randomId('evt');
    const b = randomId('evt');
    // the last six hex digits count: the next event id is the successor
    expect(a.slice(0, -6)).toBe(b.slice(0, -6));
    expect(parseInt(b.slice(-6), 16)).toBe(parseInt(a.slice(-6), 16) + 1);
    // a session id is what a host hands to --resume: one tells nothing of the next
    const s1 = randomId('ses');
    const s2 = randomId('ses');
    expect(s1.slice(0, 12)).not.toBe(s2.slice(0, 12));
  });

  const at = (ms: number): RuntimeClock => ({ now: () => ms });
  const cases: [string, RuntimeClock, IdFactory][] = [
    ['an id factory of the host', systemClock, () => 'evt_not valid'],
    ['a clock past year 9999', at(253_402_300_800_000), randomId],
    ['a clock before year 0', at(-62_167_219_200_001), randomId],
  ];
  it.each(cases)('%s is judged, and an invalid header stops the log', async (_, clock, ids) => {
    const store = createMemoryEventStore();
    await store.claim();
    const log = new SessionLog(new EventWriter(store, clock, ids), 'ses_judged');
    log.append({ type: 'session.state_changed', from: 'opening', to: 'ready' });
    const error: unknown = await log.durable().catch((e: unknown) => e);
    expect(isRuntimeError(error) && error.reason).toBe('envelope_invalid');
    expect(await store.getSession('ses_judged')).toBeUndefined();
  });

  it('years 0000 and 9999 are stamped in the schema form', () => {
    for (const ms of [0, -62_167_219_200_000, 253_402_300_799_999]) {
      const writer = new EventWriter(createMemoryEventStore(), at(ms), randomId);
      expect(
        parseEventEnvelope({
          eventId: randomId('evt'),
          sessionId: 'ses_x',
          sequence: 1,
          occurredAt: writer.stamp(),
          wireVersion: WIRE_VERSION,
          payload: { type: 'session.state_changed', from: 'opening', to: 'ready' },
        }).occurredAt,
      ).toBe(writer.stamp());
      expect(writer.stampCanonical).toBe(ms >= 0);
    }
  });
});
