/**
 * The capability gate (ADR-0042) on the real binary. Every reviewed release carries every
 * optional feature (fixtures/compat/<version>.md, "Capabilities"), so no real release can show a
 * refusal: the capability map entry of the binary under test is doctored here, and only here, to
 * lack some. What is real is the rest: the version the gate reads from codex's own initialize
 * reply, the teardown of the refused connection, and a session whose run is refused a steer and
 * an output schema while codex goes on with the turn.
 */
import { describe, expect, it, vi } from 'vitest';
import { createCodexProvider } from '../../src/index.js';
import { requireCodexBinary } from '../../src/testing/index.js';
import { useCleanups } from '../support/cleanups.js';
import { codexProviderBase, realCodexParts } from '../support/codex-runtime.js';
import { textInput } from '../support/provider-harness.js';
import { acceptUnderReview } from '../support/releases.js';
import { openRealCodex, sessionInit, slowTextStep } from '../support/real-codex.js';
import { refusal } from '../support/refusals.js';
import * as turns from '../support/turns.js';

vi.mock('../../src/capabilities/releases.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/capabilities/releases.js')>();
  const { requireCodexBinary: locate } = await import('../../src/testing/index.js');
  const { CODEX_FEATURES } = await import('../../src/capabilities/features.js');
  const lacking = ['events.plan', 'run.steer', 'run.structuredOutput', 'readRateLimits'];
  return {
    CODEX_RELEASE_CAPABILITIES: {
      ...real.CODEX_RELEASE_CAPABILITIES,
      [locate({ kind: 'native' }).version]: CODEX_FEATURES.filter((f) => !lacking.includes(f)),
    },
  };
});

const binary = requireCodexBinary({ kind: 'native' });
const cleanups = useCleanups();

describe(`the capability gate on the real codex ${binary.version}, its map entry doctored`, () => {
  it('createSession asking for a lacking feature is refused once codex names its release; nothing reaches the model', async () => {
    const parts = await realCodexParts(cleanups, 'relvo-gate-');
    const { iso, server } = parts;
    const provider = createCodexProvider({
      ...codexProviderBase(parts),
      additionalAppServerVersions: acceptUnderReview(binary.version),
      events: { plan: true },
    });
    const error = await refusal(provider.createSession(sessionInit(iso.workspace)));
    expect(error).toMatchObject({
      code: 'capability_unsupported',
      details: { capability: 'events.plan', codexVersion: binary.version },
    });
    // the refused connection was torn down, not kept in the abandoned ledger
    expect(provider.abandonedConnectionCount).toBe(0);
    expect(server.requests).toHaveLength(0);
  });

  it('a run is refused its outputSchema at startRun and its steer at steer; the turn itself completes', async () => {
    const codex = await openRealCodex();
    const schemaRefused = await refusal(
      turns.start(codex.session, 'x', 'structured', { outputSchema: { type: 'object' } }),
    );
    expect(schemaRefused).toMatchObject({
      code: 'capability_unsupported',
      details: { capability: 'run.structuredOutput', codexVersion: binary.version },
    });
    expect(codex.server.requests).toHaveLength(0);

    codex.server.enqueue(slowTextStep(20, 50, 'w'));
    const { run, sink } = await turns.start(codex.session, 'count', 'r1');
    await turns.firstDelta(sink);
    if (run.steer === undefined) throw new Error('the codex run has steer');
    expect(await refusal(run.steer(textInput('STEER')))).toMatchObject({
      code: 'capability_unsupported',
      details: { capability: 'run.steer', codexVersion: binary.version },
    });
    expect(await run.completion).toEqual({ outcome: 'succeeded' });
    // a steer that reached codex would have cut the response and asked the model again
    expect(codex.server.requests).toHaveLength(1);
  });

  it('readRateLimits is refused before account/rateLimits/read', async () => {
    const codex = await openRealCodex();
    expect(
      await refusal(codex.provider.readRateLimits({ cwd: codex.iso.workspace })),
    ).toMatchObject({
      code: 'capability_unsupported',
      details: { capability: 'readRateLimits', codexVersion: binary.version },
    });
    expect(codex.provider.abandonedConnectionCount).toBe(0);
  });
});
