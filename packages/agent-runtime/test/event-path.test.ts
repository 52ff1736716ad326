/**
 * What the runtime's per-event path promises of a provider's events, proven so that a faster path
 * cannot quietly drop it: a malformed provider event is refused (the message-delta shortcut
 * accepts nothing the zod schema refuses). That what a host reads cannot change the log is
 * frozen-log.test.ts; batching per macrotask is event-batching.test.ts.
 */
import { messageDeltaEvent, providerEventInputSchema } from '@relvo-labs/agent-provider';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  contractDiagnostic,
  intakeProviderEvent,
  recordedEmission,
} from '../src/session/intake.js';
import { fullRoad } from './full-road.js';
import { manualRuntime, until } from './support.js';

const DELTA_MAX = 100_000;

/** What the full road (capture, then the strict SPI schema) says about `input`. */
const zodVerdict = (input: unknown): unknown => fullRoad(providerEventInputSchema, input)?.payload;

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
    // another copy of the SPI makes its deltas as instances of its own frozen class, unknown
    // here: read, judged and admitted as the plain event it stands for
    class TheirDelta {
      readonly #sound = true;
      readonly payload: { type: 'run.message_delta'; text: string };
      constructor(text: string) {
        this.payload = Object.freeze({ type: 'run.message_delta', text });
        Object.freeze(this);
      }
      static has(o: object): boolean {
        return #sound in o;
      }
    }
    Object.freeze(TheirDelta.prototype);
    const theirs = new TheirDelta('theirs');
    expect(TheirDelta.has(theirs)).toBe(true);
    expect(recordedEmission(theirs, verdict)).toEqual(theirs.payload);
    expect(intakeProviderEvent(theirs)).toEqual({ ok: true, value: theirs.payload });
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
