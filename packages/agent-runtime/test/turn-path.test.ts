/**
 * The per-turn road (adr/0035): a string input, `turn.started`, `run.finished` and the provider's
 * termination are judged without capture + the whole schema when they are plain and simple.
 * Each short road must accept nothing the full road refuses, give the same value, frozen, and
 * leave the provider its own copy of the input.
 */
import {
  providerRunTerminationSchema,
  turnInputSchema,
  type TurnInput,
} from '@relvo-labs/agent-provider';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { flatPayload, NESTED_TYPES } from '../src/session/flat-payloads.js';
import { intakeTermination } from '../src/session/intake.js';
import { isJudgedTurnInput, toTurnInput, turnInputs } from '../src/session/turn-input.js';
import { flatRoadAgrees, fullRoad, isDeepFrozen, payloadVerdict } from './full-road.js';
import { manualRuntime, settlesWithin, until } from './support.js';

const TEXT_MAX = 100_000;

const verdict = (fn: () => unknown): unknown => {
  try {
    return { ok: fn() };
  } catch (error) {
    return { threw: (error as { reason?: string }).reason };
  }
};

const text = fc.oneof(
  fc.string(),
  fc.constantFrom('', 'x'.repeat(TEXT_MAX), 'x'.repeat(TEXT_MAX + 1), '\u0000', '😀'),
);

describe('a string turn input', () => {
  it('is judged as the full road judges it; the log gets a frozen judged copy, the provider its own', () => {
    fc.assert(
      fc.property(text, (s) => {
        const fast = verdict(() => turnInputs(s));
        const full = verdict(() => toTurnInput(s));
        if ('threw' in (fast as object)) {
          expect(fast).toEqual(full);
          return;
        }
        const { input, logged } = turnInputs(s);
        expect(full).toEqual({ ok: input });
        expect(logged).toEqual(input);
        expect(isDeepFrozen(logged)).toBe(true);
        expect(isJudgedTurnInput(logged)).toBe(true);
        expect(Object.isFrozen(input)).toBe(false);
        expect(isJudgedTurnInput(input)).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it('a structured input takes the full road and is not taken as judged', () => {
    const value: TurnInput = { parts: [{ type: 'text', text: 'hi' }] };
    const { input, logged } = turnInputs(value);
    expect(input).toEqual(turnInputSchema.parse(value));
    expect(isJudgedTurnInput(logged)).toBe(false);
  });
});

const judged = turnInputs('hello').logged;
// mostly valid, now and then not: the road must be taken often enough to say something
const id = fc.constantFrom(
  'trn_a1',
  'trn_a1',
  'trn_a1',
  'trn_',
  'run_a1',
  `trn_${'x'.repeat(121)}`,
);
const name = fc.constantFrom('alpha', 'codex', 'codex', 'codex', '', 'x'.repeat(65));
const at = fc.constantFrom(
  '2026-12-02T18:00:00.000Z',
  '2026-12-02T18:00:00.000Z',
  '2026-12-02T18:00:00.000Z',
  '2026-12-02T18:00:00Z',
  '2026-13-02T18:00:00.000Z',
  'yesterday',
  '',
);
const rarely = fc.constantFrom(false, false, false, true);

const nestedLike = fc
  .record({
    type: fc.constantFrom(...NESTED_TYPES),
    turnId: id,
    profile: name,
    providerId: name,
    input: fc.constantFrom<unknown>(
      judged,
      judged,
      { parts: [{ type: 'text', text: 'hello' }] },
      'x',
    ),
    outcome: fc.constantFrom('succeeded', 'succeeded', 'interrupted', 'failed', 'done'),
    at,
    reason: fc.option(fc.constantFrom('stop', '', 'x'.repeat(2_000)), { nil: undefined }),
    // an extra member now and then (fc.option would add one three times in four)
    extra: fc.constantFrom(undefined, undefined, undefined, undefined, 'error', 'x', 'runId'),
    accessor: rarely,
    hidden: rarely,
    proxy: rarely,
    nullProto: rarely,
  })
  .map((r) => {
    const termination: Record<string, unknown> = r.nullProto
      ? Object.create(null)
      : { outcome: r.outcome };
    termination.outcome = r.outcome;
    if (r.accessor) Object.defineProperty(termination, 'at', { get: () => r.at, enumerable: true });
    else termination.at = r.at;
    if (r.reason !== undefined) termination.reason = r.reason;
    if (r.hidden) Object.defineProperty(termination, 'seq', { value: 1, enumerable: false });
    const members: Record<string, unknown> =
      r.type === 'turn.started'
        ? { turnId: r.turnId, profile: r.profile, providerId: r.providerId, input: r.input }
        : { termination: r.proxy ? new Proxy(termination, {}) : termination };
    const payload: Record<string, unknown> = { type: r.type, ...members };
    if (r.extra !== undefined) payload[r.extra] = 'x';
    return payload;
  });

describe('turn.started and run.finished', () => {
  it('the member-by-member road accepts only what the payload schema accepts, frozen', () => {
    const taken = flatRoadAgrees(nestedLike, isDeepFrozen, 3000);
    expect(taken).toBeGreaterThan(50);
  });

  it('an input the runtime did not judge itself takes the full road', () => {
    const started = { type: 'turn.started', turnId: 'trn_1', profile: 'p', providerId: 'codex' };
    const payload = { ...started, input: { parts: [{ type: 'text', text: 'hello' }] } };
    expect(flatPayload(payload)).toBeUndefined();
    expect(flatPayload({ ...payload, input: judged })).toEqual(payloadVerdict(payload));
  });
});

const terminationLike = fc
  .record({
    outcome: fc.constantFrom<unknown>('succeeded', 'interrupted', 'failed', 'done', 1),
    extra: fc.option(fc.constantFrom('reason', 'error', 'at'), { nil: undefined }),
    accessor: rarely,
    proxy: rarely,
    nullProto: rarely,
    symbol: rarely,
  })
  .map((r) => {
    const value: Record<string | symbol, unknown> = r.nullProto ? Object.create(null) : {};
    if (r.accessor)
      Object.defineProperty(value, 'outcome', { get: () => r.outcome, enumerable: true });
    else value.outcome = r.outcome;
    if (r.extra !== undefined) value[r.extra] = r.extra === 'reason' ? 'stop' : 'x';
    if (r.symbol) value[Symbol('s')] = 1;
    return r.proxy ? new Proxy(value, {}) : value;
  });

const terminationVerdict = (value: unknown): unknown =>
  fullRoad(providerRunTerminationSchema, value) ?? 'refused';

describe("a provider's termination", () => {
  it('is accepted exactly when the schema accepts it, with the same value, frozen', () => {
    fc.assert(
      fc.property(terminationLike, (value) => {
        const expected = terminationVerdict(value);
        const got = intakeTermination(value);
        if (expected === 'refused') {
          expect(got).toMatchObject({
            outcome: 'failed',
            error: { code: 'provider_contract_violation' },
          });
        } else {
          expect(got).toEqual(expected);
          expect(isDeepFrozen(got)).toBe(true);
        }
      }),
      { numRuns: 1000 },
    );
  });
});

describe('a turn through the runtime', () => {
  it('records the input the host sent; what the provider does to its copy changes nothing', async () => {
    const { manual, session, events } = await manualRuntime();
    const turn = await session.submitTurn({ input: 'hello there' });
    await until(() => manual.sessions[0]?.runs.length === 1, 'the provider run');
    const run = manual.sessions[0]?.runs[0];
    const given = run?.request.input as { parts: { text: string }[] };
    expect(given).toEqual({ parts: [{ type: 'text', text: 'hello there' }] });
    (given.parts[0] as { text: string }).text = 'changed by the provider';
    run?.complete({ outcome: 'succeeded' });
    const result = await settlesWithin(turn.done, 'done');
    expect(result.termination.outcome).toBe('succeeded');
    const log = await events();
    const started = log.find((e) => e.payload.type === 'turn.started');
    expect(started?.payload).toMatchObject({
      input: { parts: [{ type: 'text', text: 'hello there' }] },
    });
    expect(isDeepFrozen(started)).toBe(true);
    const finished = log.find((e) => e.payload.type === 'run.finished');
    expect(finished?.payload).toEqual({
      type: 'run.finished',
      termination: { outcome: 'succeeded', at: result.termination.at },
    });
  });

  it('an empty string is refused before the turn exists, as before', async () => {
    const { session, events } = await manualRuntime();
    const before = (await events()).length;
    await expect(session.submitTurn({ input: '' })).rejects.toMatchObject({
      reason: 'turn_input_invalid',
    });
    expect((await events()).length).toBe(before);
  });
});
