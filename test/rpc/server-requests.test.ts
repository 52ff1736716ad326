import { describe, expect, it } from 'vitest';
import { SERVER_REQUEST_LEDGER_LIMIT } from '../../src/rpc/server-requests.js';
import { QUESTION_ANSWER, QUESTION_METHOD, startClient, track } from '../support/client-harness.js';

const CANARY = 'CANARY-method-9931';
const APPROVAL_METHOD = 'item/commandExecution/requestApproval';

function question(id: number | string): Record<string, unknown> {
  return {
    id,
    method: QUESTION_METHOD,
    params: { threadId: 't', turnId: 'u', itemId: 'i', questions: [] },
  };
}

describe('server-initiated requests', () => {
  it('offers a request to the handler; respond answers once on its own id', async () => {
    const { transport, seen } = startClient();
    transport.push(question(0));
    await transport.drained();
    expect(seen.offers).toHaveLength(1);
    const offer = seen.offers[0]!;
    expect(offer.id).toBe(0);
    expect(offer.method).toBe(QUESTION_METHOD);
    expect(offer.params).toMatchObject({ itemId: 'i' });
    expect(offer.respond(QUESTION_ANSWER)).toBe(true);
    expect(offer.respond(QUESTION_ANSWER)).toBe(false);
    expect(offer.reject(-32602, 'malformed')).toBe(false);
    expect(offer.retire()).toBe(false);
    expect(transport.sentRaw).toEqual([{ id: 0, result: QUESTION_ANSWER }]);
  });

  it('reject answers once with an error on the request id', async () => {
    const { transport, seen } = startClient();
    transport.push({ id: 'req-a', method: APPROVAL_METHOD, params: {} });
    await transport.drained();
    const offer = seen.offers[0]!;
    expect(offer.reject(-32602, 'cannot be represented')).toBe(true);
    expect(offer.respond({ decision: 'decline' })).toBe(false);
    expect(transport.sentRaw).toEqual([
      { id: 'req-a', error: { code: -32602, message: 'cannot be represented' } },
    ]);
  });

  it('retire stops awaiting without writing anything', async () => {
    const { transport, seen } = startClient();
    transport.push(question(4));
    await transport.drained();
    const offer = seen.offers[0]!;
    expect(offer.retire()).toBe(true);
    expect(offer.retire()).toBe(false);
    expect(offer.respond(QUESTION_ANSWER)).toBe(false);
    expect(transport.sentRaw).toEqual([]);
  });

  it('keeps server ids apart from outbound ids: a colliding id never settles our request', async () => {
    const { transport, client, seen } = startClient();
    const ours = track(client.request('thread/start', {}));
    transport.push(question(1));
    await transport.drained();
    expect(seen.offers.map((o) => o.id)).toEqual([1]);
    expect(ours.state).toBe('pending');
    expect(client.pendingCount).toBe(1);
    seen.offers[0]!.respond(QUESTION_ANSWER);
    expect(transport.sentRaw[1]).toEqual({ id: 1, result: QUESTION_ANSWER });
    transport.push({ id: 1, result: { thread: 1 } });
    await transport.drained();
    expect(ours).toEqual({ state: 'resolved', value: { thread: 1 } });
  });

  it('answers -32601 on the request id when the handler declines', async () => {
    const { transport, seen } = startClient({ onServerRequest: () => false });
    transport.push({ id: 0, method: 'item/tool/call', params: {} });
    await transport.drained();
    expect(transport.sentRaw).toEqual([
      { id: 0, error: { code: -32601, message: expect.any(String) } },
    ]);
    expect(seen.diagnostics).toEqual([
      { token: 'server_request_declined', level: 'debug', method: 'item/tool/call' },
    ]);
  });

  it('answers -32601 when the handler throws, and names no unpinned method', async () => {
    const { transport, seen } = startClient({
      onServerRequest: () => {
        throw new Error(CANARY);
      },
    });
    transport.push({ id: 3, method: `x/${CANARY}`, params: {} });
    await transport.drained();
    expect(transport.sentRaw).toEqual([
      { id: 3, error: { code: -32601, message: expect.any(String) } },
    ]);
    expect(seen.diagnostics).toEqual([
      { token: 'server_request_handler_failed', level: 'warning' },
      { token: 'server_request_declined', level: 'debug' },
    ]);
    expect(JSON.stringify(seen.diagnostics)).not.toContain(CANARY);
  });

  it.each([undefined, 1, 'yes', {}])(
    'treats a non-true return (%s) as a decline so no request can stall',
    async (value) => {
      const { transport } = startClient({ onServerRequest: () => value });
      transport.push({ id: 0, method: APPROVAL_METHOD, params: {} });
      await transport.drained();
      expect(transport.sentRaw).toEqual([
        { id: 0, error: { code: -32601, message: expect.any(String) } },
      ]);
    },
  );

  it('does not add a decline after the handler answered synchronously and returned false', async () => {
    const { transport } = startClient({
      onServerRequest: (offer) => {
        offer.reject(-32602, 'malformed');
        return false;
      },
    });
    transport.push({ id: 0, method: APPROVAL_METHOD, params: {} });
    await transport.drained();
    expect(transport.sentRaw).toEqual([{ id: 0, error: { code: -32602, message: 'malformed' } }]);
  });

  it('drops a still-outstanding id arriving again as duplicate_server_request, unanswered', async () => {
    const { transport, seen } = startClient();
    transport.push(question(0));
    transport.push(question(0));
    await transport.drained();
    expect(seen.offers).toHaveLength(1);
    expect(seen.drops).toEqual([{ reason: 'duplicate_server_request' }]);
    expect(transport.sentRaw).toEqual([]);
    seen.offers[0]!.respond(QUESTION_ANSWER);
    expect(transport.sentRaw).toEqual([{ id: 0, result: QUESTION_ANSWER }]);
  });

  it('a reused id after a reply (identical or conflicting) gives a diagnostic only', async () => {
    const { transport, seen } = startClient();
    transport.push(question(5));
    await transport.drained();
    seen.offers[0]!.respond(QUESTION_ANSWER);
    transport.push(question(5));
    transport.push({ id: 5, method: APPROVAL_METHOD, params: { other: true } });
    await transport.drained();
    expect(seen.offers).toHaveLength(1);
    expect(transport.sentRaw).toHaveLength(1);
    expect(seen.drops).toEqual([]);
    expect(seen.diagnostics).toEqual([
      { token: 'server_request_id_reused', level: 'warning' },
      { token: 'server_request_id_reused', level: 'warning' },
    ]);
    expect(JSON.stringify(seen.diagnostics)).not.toContain('5');
  });

  it('remembers retired and declined ids too', async () => {
    const { transport, seen } = startClient({
      onServerRequest: (offer) => {
        seen.offers.push(offer);
        return offer.method === QUESTION_METHOD;
      },
    });
    transport.push(question(0));
    transport.push({ id: 1, method: 'item/tool/call', params: {} });
    await transport.drained();
    seen.offers[0]!.retire();
    transport.push(question(0));
    transport.push(question(1));
    await transport.drained();
    expect(seen.offers).toHaveLength(2);
    expect(transport.sentRaw).toEqual([
      { id: 1, error: { code: -32601, message: expect.any(String) } },
    ]);
    expect(seen.diagnostics.filter((d) => d.token === 'server_request_id_reused')).toHaveLength(2);
  });

  it('keeps the number 0 and the string "0" as different server ids', async () => {
    const { transport, seen } = startClient();
    transport.push(question(0));
    transport.push(question('0'));
    await transport.drained();
    expect(seen.offers.map((o) => o.id)).toEqual([0, '0']);
    expect(seen.drops).toEqual([]);
  });
});

describe('server-request ledger bound', () => {
  it(`holds ${SERVER_REQUEST_LEDGER_LIMIT} unique ids; the next one and every outstanding callback get -32600 and a fence`, async () => {
    const { transport, client, seen } = startClient();
    const outstanding = new Set([7, 100, 4095]);
    for (let id = 0; id < SERVER_REQUEST_LEDGER_LIMIT; id += 1) transport.push(question(id));
    await transport.drained();
    expect(seen.offers).toHaveLength(SERVER_REQUEST_LEDGER_LIMIT);
    for (const offer of seen.offers)
      if (!outstanding.has(offer.id as number)) offer.respond(QUESTION_ANSWER);
    const repliesBefore = transport.sentRaw.length;
    expect(repliesBefore).toBe(SERVER_REQUEST_LEDGER_LIMIT - outstanding.size);
    expect(seen.fences).toEqual([]);
    expect(client.isFenced).toBe(false);

    // A reuse at the limit is still only a diagnostic.
    transport.push(question(12));
    await transport.drained();
    expect(seen.fences).toEqual([]);
    expect(transport.sentRaw).toHaveLength(repliesBefore);

    transport.push(question(SERVER_REQUEST_LEDGER_LIMIT));
    await transport.drained();
    expect(seen.offers).toHaveLength(SERVER_REQUEST_LEDGER_LIMIT);
    const overflowReplies = transport.sentRaw.slice(repliesBefore);
    expect(overflowReplies).toHaveLength(1 + outstanding.size);
    expect(overflowReplies).toContainEqual({
      id: SERVER_REQUEST_LEDGER_LIMIT,
      error: { code: -32600, message: expect.any(String) },
    });
    for (const id of outstanding) {
      expect(overflowReplies).toContainEqual({
        id,
        error: { code: -32600, message: expect.any(String) },
      });
    }
    expect(seen.fences).toEqual(['server_request_ledger_overflow']);
    expect(client.isFenced).toBe(true);
    // The outstanding callbacks were answered by the overflow: the handler can no longer answer.
    expect(seen.offers.find((o) => o.id === 7)!.respond(QUESTION_ANSWER)).toBe(false);

    // Later new ids are refused explicitly too; the fence is reported once.
    transport.push(question(SERVER_REQUEST_LEDGER_LIMIT + 1));
    await transport.drained();
    expect(transport.sentRaw.at(-1)).toEqual({
      id: SERVER_REQUEST_LEDGER_LIMIT + 1,
      error: { code: -32600, message: expect.any(String) },
    });
    expect(seen.fences).toEqual(['server_request_ledger_overflow']);
    expect(JSON.stringify(seen.diagnostics)).not.toMatch(/\d{2,}/);
  });
});
