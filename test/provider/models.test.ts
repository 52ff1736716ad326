/**
 * `provider.listModels()` on a fake transport (src/models.ts): each catalog entry reduced to the
 * published shape, pages followed up to the cap, a bad answer or option refused with a token, and
 * the connection closed every time. The real catalog is in test/e2e/models.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { createCodexProvider, type ListModelsInit } from '../../src/index.js';
import { MAX_MODEL_PAGES, modelOf } from '../../src/models.js';
import { createProviderHarness } from '../support/provider-harness.js';
import {
  count,
  CANARY_SECRET,
  reply,
  USER_AGENT,
  waitForRequest,
} from '../support/provider-frames.js';
import { unlistedNeighbours, userAgentOf } from '../support/releases.js';
import { refusal as rejection } from '../support/refusals.js';

/** A catalog entry shaped like the baseline's (recorded from 0.171.0), with a canary inside. */
function entry(id: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id,
    model: id,
    upgrade: null,
    displayName: id.toUpperCase(),
    description: `Fast model ${CANARY_SECRET}`,
    hidden: false,
    supportedReasoningEfforts: [
      { reasoningEffort: 'low', description: 'Fast responses' },
      { reasoningEffort: 'high', description: 'Greater depth' },
    ],
    defaultReasoningEffort: 'low',
    inputModalities: ['text', 'image'],
    serviceTiers: [{ id: 'priority', name: 'Fast', description: CANARY_SECRET }],
    isDefault: false,
    ...extra,
  };
}

describe('modelOf', () => {
  it('keeps id, slug, name, flags and efforts; never the description or other members', () => {
    const model = modelOf(entry('gpt-x', { isDefault: true }));
    expect(model).toEqual({
      id: 'gpt-x',
      model: 'gpt-x',
      displayName: 'GPT-X',
      isDefault: true,
      hidden: false,
      defaultEffort: 'low',
      efforts: ['low', 'high'],
    });
    expect(JSON.stringify(model)).not.toContain(CANARY_SECRET);
  });

  it('an entry that does not fit (no id, an id with spaces, a prose effort) is left out', () => {
    expect(modelOf({ ...entry('a'), id: undefined })).toBeUndefined();
    expect(modelOf(entry('two words'))).toBeUndefined();
    expect(
      modelOf(entry('a', { supportedReasoningEfforts: [{ reasoningEffort: 'Very High!' }] })),
    ).toBeUndefined();
  });
});

describe('provider.listModels (fake transport)', () => {
  it('follows nextCursor with the page size, skips what does not fit, closes the connection', async () => {
    const h = createProviderHarness();
    const listing = h.provider.listModels({ pageSize: 2, includeHidden: true });
    await reply(h.transport, 'initialize', { userAgent: USER_AGENT });
    await reply(h.transport, 'model/list', {
      data: [entry('a', { isDefault: true }), entry('b')],
      nextCursor: '2',
    });
    await reply(h.transport, 'model/list', { data: [entry('bad id'), entry('c')] }, 1);
    const list = await listing;
    expect(list).toEqual({
      models: [
        expect.objectContaining({ id: 'a', isDefault: true }),
        expect.objectContaining({ id: 'b' }),
        expect.objectContaining({ id: 'c' }),
      ],
      truncated: false,
      skipped: 1,
    });
    const pages = h.transport.sent.filter((f) => f.method === 'model/list').map((f) => f.params);
    expect(pages).toEqual([
      { includeHidden: true, limit: 2 },
      { includeHidden: true, limit: 2, cursor: '2' },
    ]);
    h.transport.assertAllFramesValid();
    expect(h.transport.closeCalls).toBe(1);
    expect(JSON.stringify(list)).not.toContain(CANARY_SECRET);
  });

  it(`stops after ${MAX_MODEL_PAGES} pages and says the list is truncated`, async () => {
    const h = createProviderHarness();
    const listing = h.provider.listModels();
    await reply(h.transport, 'initialize', { userAgent: USER_AGENT });
    for (let page = 0; page < MAX_MODEL_PAGES; page += 1) {
      await reply(
        h.transport,
        'model/list',
        { data: [entry(`m${page}`)], nextCursor: `${page + 1}` },
        page,
      );
    }
    const list = await listing;
    expect(list.truncated).toBe(true);
    expect(list.models).toHaveLength(MAX_MODEL_PAGES);
    expect(count(h.transport, 'model/list')).toBe(MAX_MODEL_PAGES);
    expect(h.transport.closeCalls).toBe(1);
  });

  it('a cursor that does not move is a contract violation, and the connection is closed', async () => {
    const h = createProviderHarness();
    const listing = rejection(h.provider.listModels());
    await reply(h.transport, 'initialize', { userAgent: USER_AGENT });
    await reply(h.transport, 'model/list', { data: [], nextCursor: '1' });
    await reply(h.transport, 'model/list', { data: [], nextCursor: '1' }, 1);
    expect(await listing).toMatchObject({ code: 'provider_contract_violation' });
    expect(h.transport.closeCalls).toBe(1);
  });

  it('codex refusing the request (-32600) is a typed rejection without its text', async () => {
    const h = createProviderHarness();
    const listing = rejection(h.provider.listModels());
    await reply(h.transport, 'initialize', { userAgent: USER_AGENT });
    const request = await waitForRequest(h.transport, 'model/list');
    h.transport.push({
      id: request.id,
      error: { code: -32600, message: `invalid cursor: ${CANARY_SECRET}` },
    });
    const error = await listing;
    expect(error).toMatchObject({ code: 'provider_rejected', providerCode: 'invalid_request' });
    expect(JSON.stringify(error)).not.toContain(CANARY_SECRET);
    expect(h.transport.closeCalls).toBe(1);
  });

  it('a release outside the window is refused before model/list', async () => {
    const [unlisted] = unlistedNeighbours();
    const h = createProviderHarness();
    const listing = rejection(h.provider.listModels());
    await reply(h.transport, 'initialize', { userAgent: userAgentOf(unlisted ?? '0.0.1') });
    expect(await listing).toMatchObject({ providerCode: 'unsupported_app_server_version' });
    expect(count(h.transport, 'model/list')).toBe(0);
    expect(h.transport.closeCalls).toBe(1);
  });

  it('an unknown option key is named, and nothing is started', async () => {
    let started = 0;
    const h = createProviderHarness();
    const provider = createCodexProvider({
      transport: () => {
        started += 1;
        return h.transport;
      },
    });
    const error = await rejection(
      provider.listModels({ includeHiden: true } as unknown as ListModelsInit),
    );
    expect(error).toMatchObject({
      code: 'invalid_request',
      providerCode: 'invalid_options',
      details: { issues: ['includeHiden'] },
    });
    expect(started).toBe(0);
  });
});
