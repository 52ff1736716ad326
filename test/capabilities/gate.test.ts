/**
 * The capability gate (src/capabilities/gate.ts, ADR-0042) on a fake transport, with the
 * connected release stubbed in the initialize reply. No reviewed release lacks a feature, so the
 * capability map is doctored here only: the window's first release is made to lack some.
 */
import type { ProviderSession } from '@relvo-labs/agent-provider';
import { describe, expect, it, vi } from 'vitest';
import { CODEX_FEATURES, type CodexFeature } from '../../src/capabilities/features.js';
import { ReleaseCapabilities, requestedFeatures } from '../../src/capabilities/gate.js';
import { CODEX_APP_SERVER_MIN_VERSION } from '../../src/constants.js';
import { codexProviderOptionsSchema, type CodexProviderOptions } from '../../src/options.js';
import {
  createProviderHarness,
  recordingSink,
  textInput,
  type ProviderHarness,
} from '../support/provider-harness.js';
import { count, reply, startBound, THREAD, turns } from '../support/provider-frames.js';
import { BASELINE, recordedUserAgentOf, unlistedNeighbours } from '../support/releases.js';
import { refusal, unsupported } from '../support/doctored-releases.js';

const OLD = CODEX_APP_SERVER_MIN_VERSION;
// hoisted with the mock below, which cannot read this file's other bindings
const { LACKING } = vi.hoisted(() => ({
  LACKING: [
    'events.plan',
    'elicitationUrls',
    'run.steer',
    'run.structuredOutput',
    'listModels',
  ] as readonly CodexFeature[],
}));

vi.mock('../../src/capabilities/releases.js', async (importOriginal) => {
  const { firstReleaseLacking } = await import('../support/doctored-releases.js');
  return firstReleaseLacking(await importOriginal(), LACKING);
});

/** The handshake went through to thread/start, and the session closes its transport once disposed. */
async function expectOpened(h: ProviderHarness, session: ProviderSession): Promise<void> {
  expect(count(h.transport, 'initialized')).toBe(1);
  expect(count(h.transport, 'thread/start')).toBe(1);
  expect(h.transport.closeCalls).toBe(0);
  await session.dispose();
  expect(h.transport.closeCalls).toBe(1);
}

/** createSession on `version` with `options`; resolves the session or the refusal. */
async function openOn(version: string, options: Omit<CodexProviderOptions, 'transport'> = {}) {
  const h = createProviderHarness(options);
  const opening = h.openSession();
  // a refusal may settle before the test awaits it
  opening.catch(() => undefined);
  await reply(h.transport, 'initialize', {
    userAgent: recordedUserAgentOf(version),
    codexHome: '/home/replay/.codex',
  });
  return { h, opening };
}

describe('requestedFeatures', () => {
  const resolved = (o: Omit<CodexProviderOptions, 'transport'>) =>
    codexProviderOptionsSchema.parse(o);

  it('asks for nothing under the defaults', () => {
    expect(requestedFeatures(resolved({}))).toEqual([]);
  });

  it('names every session feature the options turn on, in table order', () => {
    const all = resolved({
      events: { plan: true, diff: 'summary', reasoningSummary: true },
      permissions: 'bridge',
      mcpElicitations: 'bridge',
      elicitationUrls: 'show',
      onRateLimits: () => undefined,
    });
    const features = requestedFeatures(all);
    expect(features).toEqual([
      'events.plan',
      'events.diff',
      'events.reasoningSummary',
      'permissions',
      'mcpElicitations',
      'elicitationUrls',
      'onRateLimits',
    ]);
    expect(features.every((f) => CODEX_FEATURES.includes(f))).toBe(true);
  });

  it('elicitationUrls counts only through the MCP bridge', () => {
    expect(requestedFeatures(resolved({ elicitationUrls: 'show' }))).toEqual([]);
  });
});

describe('ReleaseCapabilities', () => {
  const map = { '1.0.0': ['events.plan'] as const };

  it('refuses the first lacking feature with bounded details', () => {
    const gate = new ReleaseCapabilities('1.0.0', map);
    expect(gate.carries('events.plan')).toBe(true);
    expect(gate.carries('run.steer')).toBe(false);
    const refused = gate.refusal(['events.plan', 'run.steer', 'permissions']);
    expect(refused?.agentError).toMatchObject({
      code: 'capability_unsupported',
      details: { capability: 'run.steer', codexVersion: '1.0.0' },
    });
    expect(gate.refusal(['events.plan'])).toBeUndefined();
  });

  it('a release the map does not hold (host-reviewed) is refused nothing', () => {
    const gate = new ReleaseCapabilities('9.9.9', map);
    expect(gate.refusal([...CODEX_FEATURES])).toBeUndefined();
  });

  it('a prototype key is not a release', () => {
    expect(new ReleaseCapabilities('constructor', map).refusal(['run.steer'])).toBeUndefined();
  });
});

describe('createSession on a release that lacks a requested feature', () => {
  it('is refused capability_unsupported once initialize names the release; nothing else is sent', async () => {
    const { h, opening } = await openOn(OLD, { events: { plan: true } });
    const error = await refusal(opening);
    expect(error).toMatchObject(unsupported('events.plan'));
    expect(count(h.transport, 'initialized')).toBe(0);
    expect(count(h.transport, 'thread/start')).toBe(0);
    expect(h.transport.closeCalls).toBe(1);
  });

  it('names elicitationUrls when only the address is what the release lacks', async () => {
    const { opening } = await openOn(OLD, { mcpElicitations: 'bridge', elicitationUrls: 'show' });
    expect(await refusal(opening)).toMatchObject({
      details: { capability: 'elicitationUrls' },
    });
  });

  it('a release the host reviewed itself is not in the map and is refused nothing', async () => {
    const [hostReviewed = ''] = unlistedNeighbours();
    const { h, opening } = await openOn(hostReviewed, {
      events: { plan: true },
      additionalAppServerVersions: [hostReviewed],
    });
    await reply(h.transport, 'thread/start', { thread: { id: THREAD, ephemeral: true } });
    await expectOpened(h, await opening);
  });

  it('the same options open a session on a release that carries the feature', async () => {
    const { h, opening } = await openOn(BASELINE, { events: { plan: true } });
    await reply(h.transport, 'thread/start', { thread: { id: THREAD, ephemeral: true } });
    await expectOpened(h, await opening);
  });
});

describe('runs on a release that lacks steer and outputSchema', () => {
  async function openOld() {
    const { h, opening } = await openOn(OLD);
    await reply(h.transport, 'thread/start', { thread: { id: THREAD, ephemeral: true } });
    return { h, session: await opening };
  }

  it('startRun with an outputSchema is refused before turn/start; without one it runs', async () => {
    const { h, session } = await openOld();
    const structured = { runRef: 'a', outputSchema: { type: 'object' } };
    const error = await refusal(
      session.startRun({ ...structured, input: textInput('x'), sink: recordingSink() }),
    );
    expect(error).toMatchObject(unsupported('run.structuredOutput'));
    await turns();
    expect(count(h.transport, 'turn/start')).toBe(0);
    await startBound(h, session, 't1', 'b');
    expect(count(h.transport, 'turn/start')).toBe(1);
    await session.dispose();
  });

  it('steer is refused before turn/steer and the turn goes on', async () => {
    const { h, session } = await openOld();
    const { run } = await startBound(h, session, 't1');
    if (run.steer === undefined) throw new Error('the codex run has steer');
    const error = await refusal(run.steer(textInput('more')));
    expect(error).toMatchObject(unsupported('run.steer'));
    expect(count(h.transport, 'turn/steer')).toBe(0);
    await session.dispose();
  });
});

describe('probes on a release that lacks their method', () => {
  it('listModels is refused before model/list and the connection is closed', async () => {
    const h = createProviderHarness();
    const listing = refusal(h.provider.listModels());
    await reply(h.transport, 'initialize', { userAgent: recordedUserAgentOf(OLD) });
    expect(await listing).toMatchObject(unsupported('listModels'));
    expect(count(h.transport, 'model/list')).toBe(0);
    expect(h.transport.closeCalls).toBe(1);
  });
});

// the doctored entry is what the tests above rely on
it('the doctored map lacks exactly the features named here', () => {
  const gate = new ReleaseCapabilities(OLD);
  expect(CODEX_FEATURES.filter((f) => !gate.carries(f))).toEqual(LACKING);
});
