/** The handshake's version gate (docs/behaviour.md §5.2): which app-server releases are accepted. */
import { describe, expect, it } from 'vitest';
import { createCodexProvider, CODEX_SUPPORTED_APP_SERVER_VERSIONS } from '../../src/index.js';
import { CODEX_APP_SERVER_MAX_VERSION, CODEX_APP_SERVER_MIN_VERSION } from '../../src/constants.js';
import { createProviderHarness } from '../support/provider-harness.js';
import {
  CANARY_SECRET,
  count,
  published,
  reply,
  THREAD,
  waitForRequest,
} from '../support/provider-frames.js';
import {
  BASELINE,
  recordedUserAgentOf,
  unlistedNeighbours,
  userAgentOf,
} from '../support/releases.js';
import { expectClosedAfterInitialize, refusedAtInitialize } from '../support/session-handshake.js';

/** Not codex app-server at all (an initialize result without a string userAgent). */
const HANDSHAKE_INVALID = {
  code: 'provider_contract_violation',
  retryable: false,
  providerCode: 'handshake_invalid',
} as const;
/** codex app-server, but a release outside the window. */
const UNSUPPORTED = {
  code: 'provider_rejected',
  retryable: false,
  providerCode: 'unsupported_app_server_version',
} as const;

describe('handshake: version gate (docs/behaviour.md §5.2)', () => {
  const accepted = [
    ...CODEX_SUPPORTED_APP_SERVER_VERSIONS.map((v) => userAgentOf(v)),
    recordedUserAgentOf(BASELINE),
  ];
  for (const userAgent of accepted) {
    it(`accepts ${userAgent}`, async () => {
      const h = createProviderHarness();
      const opening = h.openSession();
      await reply(h.transport, 'initialize', { userAgent });
      await reply(h.transport, 'thread/start', { thread: { id: THREAD } });
      const session = await opening;
      expect(count(h.transport, 'initialized')).toBe(1);
      expect(count(h.transport, 'thread/start')).toBe(1);
      await session.dispose();
      expect(h.transport.closeCalls).toBe(1);
    });
  }

  // an initialize result without a string userAgent is not codex app-server at all
  for (const [label, userAgent] of [
    ['absent', undefined],
    ['not a string', 156],
  ] as const) {
    it(`refuses a userAgent that is ${label}: handshake_invalid, connection closed`, async () => {
      const h = createProviderHarness();
      expect(await refusedAtInitialize(h, userAgent)).toMatchObject(HANDSHAKE_INVALID);
      expectClosedAfterInitialize(h);
    });
  }
  /** label, userAgent, the version the refusal may echo (only a version-shaped token). */
  const refused: [string, unknown, string | null][] = [
    ['no " (" suffix', `relvo_agent_runtime/${BASELINE}`, null],
    ['a prerelease', userAgentOf(`${BASELINE}-alpha.1`), `${BASELINE}-alpha.1`],
    ...unlistedNeighbours().map((v): [string, unknown, string] => [
      `unlisted release ${v}`,
      userAgentOf(v),
      v,
    ]),
    ['another client name', `other_client/${BASELINE} (Linux; ${CANARY_SECRET})`, null],
    ['over 512 characters', `relvo_agent_runtime/${BASELINE} (${'x'.repeat(500)})`, null],
    ['a version-shaped token with prose', userAgentOf(`${BASELINE}-${CANARY_SECRET}!`), null],
  ];
  for (const [label, userAgent, foundVersion] of refused) {
    it(`refuses ${label}: not retryable, found version and window in details, before thread/start`, async () => {
      const h = createProviderHarness();
      const error = await refusedAtInitialize(h, userAgent);
      expect(error).toMatchObject(UNSUPPORTED);
      expect(error.details).toEqual({
        foundVersion,
        minSupportedVersion: CODEX_APP_SERVER_MIN_VERSION,
        maxSupportedVersion: CODEX_APP_SERVER_MAX_VERSION,
        install: `npm i -E @openai/codex@${BASELINE}`,
      });
      expectClosedAfterInitialize(h);
      if (typeof userAgent === 'string')
        expect(published(error)).not.toContain(userAgent.slice(0, 40));
      expect(published(error)).not.toContain(CANARY_SECRET);
    });
  }

  it('the prefix follows the configured clientName', async () => {
    const h = createProviderHarness({ clientName: 'acme_host' });
    const opening = h.openSession();
    const init = await waitForRequest(h.transport, 'initialize');
    expect(init.params).toMatchObject({
      clientInfo: { name: 'acme_host', title: 'Relvo Agent Runtime' },
      capabilities: null,
    });
    await reply(h.transport, 'initialize', { userAgent: userAgentOf(BASELINE, 'acme_host') });
    await reply(h.transport, 'thread/start', { thread: { id: THREAD } });
    await (await opening).dispose();
  });

  it('a release the host reviewed itself is accepted only through additionalAppServerVersions', async () => {
    const [reviewed = '0.0.0', other = '0.0.1'] = unlistedNeighbours();
    const h = createProviderHarness({ additionalAppServerVersions: [reviewed] });
    const opening = h.openSession();
    await reply(h.transport, 'initialize', { userAgent: userAgentOf(reviewed) });
    await reply(h.transport, 'thread/start', { thread: { id: THREAD } });
    await (await opening).dispose();

    const refusing = createProviderHarness({ additionalAppServerVersions: [reviewed] });
    const refused = refusedAtInitialize(refusing, userAgentOf(other));
    expect(await refused).toMatchObject({
      providerCode: 'unsupported_app_server_version',
      details: { foundVersion: other },
    });
    expect(count(refusing.transport, 'thread/start')).toBe(0);
  });

  it('additionalAppServerVersions takes plain releases only', () => {
    expect(() =>
      createCodexProvider({ additionalAppServerVersions: [`${BASELINE}-alpha.1`] }),
    ).toThrow();
  });
});
