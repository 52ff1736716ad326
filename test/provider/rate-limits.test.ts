/**
 * Rate limits (src/rate-limits.ts): a snapshot reduced to the published shape, the read's typed
 * `unavailable` outcome for codex's measured refusals, and the live-update observer behind the
 * provider option `onRateLimits`. The frames follow the pinned schema and the real binary's
 * recorded updates (test/e2e/models.test.ts makes the binary send them).
 */
import { isProviderRejection } from '@relvo-labs/agent-provider';
import { describe, expect, it } from 'vitest';
import { rateLimitsOf, type CodexRateLimits } from '../../src/rate-limits.js';
import { createProviderHarness } from '../support/provider-harness.js';
import {
  CANARY_SECRET,
  completed,
  delta,
  openedHarness,
  push,
  reply,
  replyError,
  startBound,
  USER_AGENT,
} from '../support/provider-frames.js';

/** An `account/rateLimits/updated` snapshot as the real binary sent it, plus members it may add. */
const SNAPSHOT = {
  limitId: 'codex',
  limitName: CANARY_SECRET,
  normalModelSlug: null,
  primary: { usedPercent: 43, windowDurationMins: 300, resetsAt: 1_800_000_000 },
  secondary: { usedPercent: 7, windowDurationMins: 10080, resetsAt: null },
  credits: { hasCredits: true, unlimited: false, balance: '12.50' },
  individualLimit: null,
  spendControlReached: null,
  planType: 'plus',
  rateLimitReachedType: null,
};

/** What codex sends on every turn without rate-limit headers (measured on 0.171.0). */
const EMPTY = {
  limitId: 'codex',
  limitName: null,
  normalModelSlug: null,
  primary: null,
  secondary: null,
  credits: null,
  individualLimit: null,
  spendControlReached: null,
  planType: null,
  rateLimitReachedType: null,
};

describe('rateLimitsOf', () => {
  it('keeps the windows, the bucket, the plan and the credit flags; never names or balances', () => {
    const limits = rateLimitsOf(SNAPSHOT);
    expect(limits).toEqual({
      limitId: 'codex',
      primary: { usedPercent: 43, windowMinutes: 300, resetsAt: 1_800_000_000 },
      secondary: { usedPercent: 7, windowMinutes: 10080 },
      planType: 'plus',
      credits: { hasCredits: true, unlimited: false },
    });
    expect(JSON.stringify(limits)).not.toContain(CANARY_SECRET);
    expect(JSON.stringify(limits)).not.toContain('12.50');
  });

  it('a member that does not fit is left out, the rest kept', () => {
    expect(rateLimitsOf({ ...EMPTY, planType: 'Plus <b>', primary: { usedPercent: -1 } })).toEqual({
      limitId: 'codex',
    });
    expect(rateLimitsOf('not a snapshot')).toBeUndefined();
  });
});

describe('provider.readRateLimits (fake transport)', () => {
  for (const message of [
    'codex account authentication required to read rate limits',
    'chatgpt authentication required to read rate limits',
  ]) {
    it(`"${message}" is the typed unavailable outcome, and the connection is closed`, async () => {
      const h = createProviderHarness();
      const reading = h.provider.readRateLimits();
      await reply(h.transport, 'initialize', { userAgent: USER_AGENT });
      await replyError(h.transport, 'account/rateLimits/read', -32600, message);
      expect(await reading).toEqual({ available: false, reason: 'not_chatgpt_login' });
      h.transport.assertAllFramesValid();
      expect(h.transport.closeCalls).toBe(1);
    });
  }

  it('any other refusal is a typed rejection that does not echo codex', async () => {
    const h = createProviderHarness();
    const reading = h.provider.readRateLimits().catch((error: unknown) => error);
    await reply(h.transport, 'initialize', { userAgent: USER_AGENT });
    await replyError(h.transport, 'account/rateLimits/read', -32603, CANARY_SECRET);
    const error = await reading;
    expect(isProviderRejection(error) && error.agentError).toMatchObject({
      code: 'provider_unavailable',
      providerCode: 'internal_error',
    });
    expect(JSON.stringify(error)).not.toContain(CANARY_SECRET);
    expect(h.transport.closeCalls).toBe(1);
  });

  it('an answer: the reduced limits', async () => {
    const h = createProviderHarness();
    const reading = h.provider.readRateLimits();
    await reply(h.transport, 'initialize', { userAgent: USER_AGENT });
    await reply(h.transport, 'account/rateLimits/read', {
      rateLimits: SNAPSHOT,
      accountId: CANARY_SECRET,
      rateLimitUpsell: { title: CANARY_SECRET },
    });
    const read = await reading;
    expect(read).toEqual({ available: true, limits: rateLimitsOf(SNAPSHOT) });
    expect(JSON.stringify(read)).not.toContain(CANARY_SECRET);
  });
});

describe('onRateLimits on a live session (fake transport)', () => {
  const update = (rateLimits: unknown): Record<string, unknown> => ({
    method: 'account/rateLimits/updated',
    params: { rateLimits },
  });

  /** A turn that hears a rate-limit update mid-turn and completes; its run's sink. */
  async function turnWithUpdate({ h, session }: Awaited<ReturnType<typeof openedHarness>>) {
    const { run, sink } = await startBound(h, session, 'turn-1');
    await push(
      h.transport,
      update(SNAPSHOT),
      delta('turn-1', 'hi'),
      completed('turn-1', 'completed'),
    );
    expect((await run.completion).outcome).toBe('succeeded');
    return sink;
  }

  it('passes on an update with limits, mid-turn too; ignores empty and malformed ones', async () => {
    const heard: CodexRateLimits[] = [];
    const { h, session } = await openedHarness({ onRateLimits: (limits) => heard.push(limits) });
    await push(h.transport, update(EMPTY), { method: 'account/rateLimits/updated', params: {} });
    const sink = await turnWithUpdate({ h, session });
    expect(heard).toEqual([rateLimitsOf(SNAPSHOT)]);
    // account-wide: nothing of it reaches the run or the session's events
    expect(JSON.stringify(sink.events)).not.toContain('usedPercent');
    await session.dispose();
  });

  it('a listener that throws does not disturb the session', async () => {
    const { h, session } = await openedHarness({
      onRateLimits: () => {
        throw new Error('host bug');
      },
    });
    await turnWithUpdate({ h, session });
    await session.dispose();
  });
});
