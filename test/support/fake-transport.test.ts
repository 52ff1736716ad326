import { describe, expect, it } from 'vitest';
import { createFakeTransport, loadPinnedSchemas } from './fake-transport.js';

// The shared assertion must be able to fail, or it proves nothing.
describe('fake transport outbound assertion', () => {
  it('accepts valid client requests, notifications and server-request replies', () => {
    const t = createFakeTransport();
    t.send({
      id: 1,
      method: 'initialize',
      params: { clientInfo: { name: 'n', version: '1' }, capabilities: null },
    });
    t.send({ method: 'initialized' });
    t.push({ id: 0, method: 'item/commandExecution/requestApproval', params: {} });
    t.send({ id: 0, result: { decision: 'decline' } });
    t.send({ id: 9, error: { code: -32601, message: 'no' } });
    expect(t.violations).toEqual([]);
    expect(() => {
      t.assertAllFramesValid();
    }).not.toThrow();
  });

  it.each([
    ['an unknown client method', { id: 1, method: 'no/such', params: {} }],
    ['a request with bad params', { id: 1, method: 'initialize', params: { clientInfo: 5 } }],
    ['a jsonrpc member', { jsonrpc: '2.0', method: 'initialized' }],
    ['an unknown notification', { method: 'nope' }],
    ['a fractional id', { id: 1.5, method: 'thread/start', params: {} }],
    ['an error without message', { id: 1, error: { code: -32601 } }],
    ['a result for an id never requested', { id: 77, result: {} }],
    ['a non-object frame', 'hello'],
  ])('records %s without throwing from send()', (_label, frame) => {
    const t = createFakeTransport();
    expect(() => {
      t.send(frame);
    }).not.toThrow();
    expect(t.violations).toHaveLength(1);
    expect(() => {
      t.assertAllFramesValid();
    }).toThrow(/invalid outbound frame/);
  });

  it('checks a reply against the Response schema of the request method', () => {
    const t = createFakeTransport();
    t.push({ id: 0, method: 'item/commandExecution/requestApproval', params: {} });
    t.send({ id: 0, result: { decision: 'approve-everything' } });
    expect(t.violations).toHaveLength(1);
  });

  it('derives a response validator for every pinned server-request method', () => {
    for (const method of loadPinnedSchemas().serverRequestMethods) {
      expect(loadPinnedSchemas().serverResponse(method)).toBeTypeOf('function');
    }
    expect([...loadPinnedSchemas().serverRequestMethods].sort()).toEqual(
      [
        'account/chatgptAuthTokens/refresh',
        'applyPatchApproval',
        'attestation/generate',
        'execCommandApproval',
        'item/commandExecution/requestApproval',
        'item/fileChange/requestApproval',
        'item/permissions/requestApproval',
        'item/tool/call',
        'item/tool/requestUserInput',
        'mcpServer/elicitation/request',
      ].sort(),
    );
  });
});
