/**
 * What the runtime's per-event path promises, each proven so that a faster path cannot quietly
 * drop it: a malformed provider event is refused (the message-delta shortcut accepts nothing
 * the zod schema refuses), what a host reads cannot change the log, a subscriber never sees an
 * envelope before its append resolved, and batching keeps sequences gapless even when a batch
 * fails (nothing of it visible, a typed store_io error).
 */
import {
  captureJson,
  messageDeltaEvent,
  providerEventInputSchema,
} from '@relvo-labs/agent-provider';
import {
  createMemoryEventStore,
  isRuntimeError,
  type EventEnvelope,
  type EventStore,
} from '@relvo-labs/agent-runtime';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { systemClock } from '../src/clock.js';
import { randomId } from '../src/ids.js';
import {
  contractDiagnostic,
  intakeProviderEvent,
  recordedEmission,
} from '../src/session/intake.js';
import { SessionLog } from '../src/session/log.js';
import { EventWriter } from '../src/session/writer.js';
import { manualRuntime, settlesWithin, until } from './support.js';

const DELTA_MAX = 100_000;

/** What the full road (capture, then the strict SPI schema) says about `input`. */
function zodVerdict(input: unknown): unknown {
  const captured = captureJson(input);
  if (!captured.ok) return undefined;
  const parsed = providerEventInputSchema.safeParse(captured.value);
  return parsed.success ? parsed.data.payload : undefined;
}

const rarely = fc.constantFrom(false, false, false, true);

/** Inputs shaped like a message delta, many of them subtly wrong. */
const deltaLike = fc
  .record({
    type: fc.oneof(
      { arbitrary: fc.constant('run.message_delta'), weight: 6 },
      { arbitrary: fc.constantFrom('run.message_delta ', 'run.usage', 'diagnostic'), weight: 1 },
    ),
    text: fc.oneof(
      { arbitrary: fc.string(), weight: 6 },
      {
        arbitrary: fc.constantFrom('', 'x'.repeat(DELTA_MAX), 'x'.repeat(DELTA_MAX + 1)),
        weight: 2,
      },
      { arbitrary: fc.oneof(fc.integer(), fc.constant(null)), weight: 1 },
    ),
    extra: fc.option(fc.constantFrom('sequence', 'eventId', '__proto__', 'runId'), {
      nil: undefined,
      freq: 3,
    }),
    // each departure from a plain delta about one time in four
    accessor: rarely,
    nullProto: rarely,
    outerExtra: rarely,
    // members the key count must see although Object.keys does not
    hidden: fc.constantFrom(undefined, undefined, undefined, 'payload', 'outer'),
    symbol: fc.constantFrom(undefined, undefined, undefined, 'payload', 'outer'),
    // a transparent proxy: the full road reads through it, the short road never takes it
    proxy: fc.constantFrom(undefined, undefined, undefined, 'payload', 'outer'),
  })
  .map(({ type, text, extra, accessor, nullProto, outerExtra, hidden, symbol, proxy }) => {
    const payload: Record<string, unknown> = nullProto ? Object.create(null) : {};
    payload.type = type;
    if (accessor) Object.defineProperty(payload, 'text', { get: () => text, enumerable: true });
    else payload.text = text;
    if (extra !== undefined) Object.defineProperty(payload, extra, { value: 1, enumerable: true });
    const outer: Record<string | symbol, unknown> = {
      payload: proxy === 'payload' ? new Proxy(payload, {}) : payload,
    };
    if (outerExtra) outer.sequence = 1;
    const target = { payload, outer }[hidden ?? 'payload'];
    if (hidden !== undefined) Object.defineProperty(target, 'seq', { value: 1, enumerable: false });
    if (symbol !== undefined) Reflect.set({ payload, outer }[symbol], Symbol('s'), 1);
    return proxy === 'outer' ? new Proxy(outer, {}) : outer;
  });

describe('a malformed provider event is refused', () => {
  it('intake accepts exactly what the zod schema accepts, as a frozen copy', () => {
    let accepted = 0;
    fc.assert(
      fc.property(deltaLike, (input) => {
        const expected = zodVerdict(input);
        const intake = intakeProviderEvent(input);
        expect(intake.ok).toBe(expected !== undefined);
        // what a run records: the same payload, or the typed diagnostic of the same refusal;
        // the verdict says a recorded-as-is payload was admitted, a refusal's diagnostic not
        const verdict = { asIs: !intake.ok };
        expect(recordedEmission(input, verdict)).toEqual(
          intake.ok ? intake.value : contractDiagnostic(intake.reason),
        );
        expect(verdict.asIs).toBe(intake.ok);
        if (intake.ok) {
          accepted += 1;
          expect(intake.value).toEqual(expected);
          expect(Object.isFrozen(intake.value)).toBe(true);
          expect(intake.value).not.toBe((input as { payload: unknown }).payload);
        }
      }),
      { numRuns: 2000 },
    );
    // the property says something about the short road only if it was taken often enough; about
    // 80 of 2000 cases are, so 30 is five standard deviations away and never a matter of the seed
    expect(accepted).toBeGreaterThan(30);
  });

  it('a delta the SPI made is kept as that very frozen payload whatever was made since; one out of bounds is refused', () => {
    const earlier = messageDeltaEvent('earlier');
    const made = messageDeltaEvent('from the SPI');
    const verdict = { asIs: false };
    // nothing copied: the frozen payload is sound and cannot change
    expect(recordedEmission(made, verdict)).toBe(made.payload);
    expect(verdict.asIs).toBe(true);
    expect(intakeProviderEvent(made)).toEqual({ ok: true, value: made.payload });
    // the verdict reads the delta, not the order of calls: an earlier one is judged the same
    messageDeltaEvent('later');
    expect(recordedEmission(earlier, verdict)).toBe(earlier.payload);
    expect(verdict.asIs).toBe(true);
    // an unfrozen look-alike is judged the same and copied into a frozen payload
    const plain = { payload: { type: 'run.message_delta', text: 'plain' } };
    const copied = recordedEmission(plain, verdict);
    expect(copied).toEqual(plain.payload);
    expect(copied).not.toBe(plain.payload);
    expect(Object.isFrozen(copied)).toBe(true);
    for (const text of ['', 'x'.repeat(DELTA_MAX + 1)]) {
      const bad = messageDeltaEvent(text);
      expect(recordedEmission(bad, verdict)).toEqual(contractDiagnostic('schema:payload.text'));
      expect(verdict.asIs).toBe(false);
    }
  });

  it('a delta whose text is an accessor is refused without calling it; the run records a typed diagnostic', async () => {
    const { manual, session, events } = await manualRuntime();
    const turn = await session.submitTurn({ input: 'x' });
    await until(() => manual.sessions[0]?.runs.length === 1, 'the run');
    const sink = manual.sessions[0]!.runs[0]!.sink;
    let calls = 0;
    const payload = { type: 'run.message_delta' } as Record<string, unknown>;
    Object.defineProperty(payload, 'text', {
      enumerable: true,
      get: () => {
        calls += 1;
        return 'from a getter';
      },
    });
    sink.emit({ payload } as never);
    sink.emit({ payload: { type: 'run.message_delta', text: 'x'.repeat(DELTA_MAX + 1) } });
    sink.emit({ payload: { type: 'run.message_delta', text: 'ok' } });
    manual.sessions[0]!.runs[0]!.complete({ outcome: 'succeeded' });
    await turn.done;
    expect(calls).toBe(0);
    const recorded = (await events()).map((e) => e.payload);
    expect(recorded.filter((p) => p.type === 'run.message_delta')).toEqual([
      { type: 'run.message_delta', text: 'ok' },
    ]);
    expect(
      recorded.filter(
        (p) => p.type === 'diagnostic' && p.detail?.code === 'provider_contract_violation',
      ),
    ).toHaveLength(2);
  });
});

describe('what a host reads cannot change the log', () => {
  it('envelopes, payloads and summaries from the memory store and from a subscription are frozen', async () => {
    const { manual, runtime, session, events } = await manualRuntime();
    const live: EventEnvelope[] = [];
    const reader = (async () => {
      for await (const e of session.subscribe()) {
        live.push(e);
        if (e.payload.type === 'turn.settled') return;
      }
    })();
    const turn = await session.submitTurn({ input: 'original' });
    await until(() => manual.sessions[0]?.runs.length === 1, 'the run');
    manual.sessions[0]!.runs[0]!.sink.emit({ payload: { type: 'run.message_delta', text: 'a' } });
    manual.sessions[0]!.runs[0]!.complete({ outcome: 'succeeded' });
    await turn.done;
    await settlesWithin(reader, 'the subscription');
    const before = structuredClone(await events());
    for (const envelope of [...(await events()), ...live]) {
      expect(() => {
        (envelope as { sequence: number }).sequence = 0;
      }).toThrow(TypeError);
      expect(() => {
        (envelope.payload as { type: string }).type = 'diagnostic';
      }).toThrow(TypeError);
    }
    const started = (await events()).find((e) => e.payload.type === 'turn.started');
    expect(() => {
      const input = (started?.payload as { input: { parts: { text: string }[] } }).input;
      input.parts[0]!.text = 'changed';
    }).toThrow(TypeError);
    const [summary] = await runtime.listSessions();
    expect(() => {
      (summary as { lastSequence: number }).lastSequence = 0;
    }).toThrow(TypeError);
    expect(await events()).toEqual(before);
    expect((await runtime.listSessions())[0]?.lastSequence).toBe(before.length);
  });

  it('a payload the runtime appends is copied: changing the original later changes nothing', async () => {
    const store = createMemoryEventStore();
    await store.claim();
    const log = new SessionLog(new EventWriter(store, systemClock, randomId), 'ses_copy');
    const workspace = { root: '/w', ownership: 'borrowed' as const };
    log.append({ type: 'session.opened', defaultProfile: 'p', workspace });
    await log.durable();
    workspace.root = '/elsewhere';
    const [opened] = await store.read('ses_copy', { fromSequence: 1, limit: 1 });
    expect(opened?.payload).toMatchObject({ workspace: { root: '/w' } });
  });
});

/** A memory store whose appends wait until the test releases them, one by one. */
function gatedStore(): {
  store: EventStore;
  readonly held: { batch: readonly EventEnvelope[]; release(fail?: boolean): void }[];
  readonly durableUpTo: () => number;
} {
  const inner = createMemoryEventStore();
  const held: { batch: readonly EventEnvelope[]; release(fail?: boolean): void }[] = [];
  let durable = 0;
  const store: EventStore = {
    kind: 'gated',
    claim: () => inner.claim(),
    append: (batch) =>
      new Promise<void>((resolve, reject) => {
        held.push({
          batch,
          release: (fail = false) => {
            if (fail) {
              reject(new Error('EIO: i/o error'));
              return;
            }
            inner.append(batch).then(() => {
              durable = batch.at(-1)?.sequence ?? durable;
              resolve();
            }, reject);
          },
        });
      }),
    read: (id, options) => inner.read(id, options),
    getSession: (id) => inner.getSession(id),
    listSessions: () => inner.listSessions(),
    close: () => inner.close(),
  };
  return { store, held, durableUpTo: () => durable };
}

const macrotask = (): Promise<void> =>
  new Promise((resolve) => {
    setImmediate(resolve);
  });

describe('batching per macrotask', () => {
  it('a subscriber never sees an envelope before its append resolved', async () => {
    const { store, held, durableUpTo } = gatedStore();
    await store.claim();
    const log = new SessionLog(new EventWriter(store, systemClock, randomId), 'ses_gate');
    const seen: { sequence: number; durable: number }[] = [];
    log.listen({
      get reached() {
        return seen.length;
      },
      storeFailed: () => undefined,
      deliver: (e) => seen.push({ sequence: e.sequence, durable: durableUpTo() }),
    });
    log.append({
      type: 'session.opened',
      defaultProfile: 'p',
      workspace: { root: '/w', ownership: 'borrowed' },
    });
    for (let burst = 0; burst < 3; burst++) {
      for (let i = 0; i < 50; i++) {
        log.append({ type: 'diagnostic', level: 'debug', message: `${burst}.${i}` });
      }
      await macrotask();
    }
    await until(() => held.length === 1, 'the first batch');
    expect(seen).toEqual([]);
    for (let released = 0; log.committedSequence < 151; released++) {
      await until(() => held.length > released, 'the next batch');
      // held: nothing of this batch has reached the subscriber
      expect(seen.at(-1)?.sequence ?? 0).toBe(durableUpTo());
      const last = held[released]!.batch.at(-1)!.sequence;
      held[released]!.release();
      await until(() => log.committedSequence === last, 'the batch committed');
    }
    expect(held.length).toBeGreaterThan(1);
    expect(seen.map((s) => s.sequence)).toEqual(Array.from({ length: 151 }, (_, i) => i + 1));
    for (const s of seen) expect(s.sequence).toBeLessThanOrEqual(s.durable);
  });

  it('what is emitted in one macrotask is one append; a failed batch leaves no trace and no gap', async () => {
    const { store, held } = gatedStore();
    await store.claim();
    const log = new SessionLog(new EventWriter(store, systemClock, randomId), 'ses_fail');
    const seen: number[] = [];
    let failed = false;
    log.listen({
      get reached() {
        return seen.length;
      },
      storeFailed: () => {
        failed = true;
      },
      deliver: (e) => seen.push(e.sequence),
    });
    log.append({
      type: 'session.opened',
      defaultProfile: 'p',
      workspace: { root: '/w', ownership: 'borrowed' },
    });
    // one macrotask, many microtasks (a provider that awaits between emits)
    for (let i = 0; i < 40; i++) {
      log.append({ type: 'diagnostic', level: 'debug', message: `${i}` });
      await Promise.resolve();
    }
    await until(() => held.length === 1, 'the first batch');
    expect(held[0]!.batch.map((e) => e.sequence)).toEqual(
      Array.from({ length: 41 }, (_, i) => i + 1),
    );
    held[0]!.release();
    await log.durable();
    for (let i = 0; i < 40; i++)
      log.append({ type: 'diagnostic', level: 'debug', message: `${i}` });
    await until(() => held.length === 2, 'the second batch');
    expect(held[1]!.batch).toHaveLength(40);
    held[1]!.release(true);
    const error: unknown = await log.durable().catch((e: unknown) => e);
    expect(isRuntimeError(error) && [error.code, error.reason]).toEqual([
      'store_unavailable',
      'store_io',
    ]);
    expect(failed).toBe(true);
    // nothing after the failure is written, so the stored history stays gapless
    log.append({ type: 'diagnostic', level: 'debug', message: 'after' });
    await macrotask();
    expect(held).toHaveLength(2);
    const stored = await store.read('ses_fail', { fromSequence: 1, limit: 1000 });
    expect(stored.map((e) => e.sequence)).toEqual(Array.from({ length: 41 }, (_, i) => i + 1));
    expect(seen).toEqual(stored.map((e) => e.sequence));
    expect((await store.getSession('ses_fail'))?.lastSequence).toBe(41);
  });
});
