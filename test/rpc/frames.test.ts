import { describe, expect, it } from 'vitest';
import type { UnclassifiableReason } from '../../src/rpc/frames.js';
import { requestIdKey } from '../../src/protocol/wire.js';
import { classifyFrame } from '../../src/rpc/frames.js';

const unclassifiable: [string, unknown, UnclassifiableReason][] = [
  ['null', null, 'not_object'],
  ['a number', 42, 'not_object'],
  ['a string', '{"id":1}', 'not_object'],
  ['undefined', undefined, 'not_object'],
  ['an array', [{ id: 1, result: 1 }], 'not_object'],
  ['an empty method', { method: '' }, 'bad_method'],
  ['a numeric method', { method: 5 }, 'bad_method'],
  ['a null method with id', { method: null, id: 1 }, 'bad_method'],
  ['an empty object', {}, 'no_method_or_id'],
  ['params only', { params: {} }, 'no_method_or_id'],
  ['a method with result', { method: 'x', id: 1, result: {} }, 'method_with_reply'],
  ['a method with error', { method: 'x', error: { code: 1, message: 'm' } }, 'method_with_reply'],
  [
    'a method with explicit undefined result',
    { method: 'x', result: undefined },
    'method_with_reply',
  ],
  ['a fractional request id', { method: 'x', id: 1.5 }, 'bad_id'],
  ['a null request id', { method: 'x', id: null }, 'bad_id'],
  ['an unsafe integer id', { id: 2 ** 53, result: 1 }, 'bad_id'],
  ['a NaN id', { id: Number.NaN, result: 1 }, 'bad_id'],
  ['a boolean id', { id: true, result: 1 }, 'bad_id'],
  ['an object id', { id: {}, result: 1 }, 'bad_id'],
  ['an explicit undefined id', { id: undefined, result: 1 }, 'bad_id'],
  ['id alone', { id: 1 }, 'id_only'],
  ['id with params only', { id: 1, params: {} }, 'id_only'],
  [
    'id, result and error',
    { id: 1, result: 1, error: { code: 1, message: 'm' } },
    'result_and_error',
  ],
  ['a null error body', { id: 1, error: null }, 'bad_error_body'],
  ['an array error body', { id: 1, error: [-32600, 'm'] }, 'bad_error_body'],
  ['a string error body', { id: 1, error: 'boom' }, 'bad_error_body'],
  ['a string code', { id: 1, error: { code: '-32600', message: 'm' } }, 'bad_error_body'],
  ['a missing code', { id: 1, error: { message: 'm' } }, 'bad_error_body'],
  ['a missing message', { id: 1, error: { code: -32600 } }, 'bad_error_body'],
  ['a numeric message', { id: 1, error: { code: -32600, message: 5 } }, 'bad_error_body'],
  [
    'an infinite code',
    { id: 1, error: { code: Number.POSITIVE_INFINITY, message: 'm' } },
    'bad_error_body',
  ],
];

describe('classifyFrame: unclassifiable frames', () => {
  it.each(unclassifiable)('%s is unclassifiable', (_label, frame, reason) => {
    expect(classifyFrame(frame)).toEqual({ kind: 'unclassifiable', reason });
  });

  it('does not count inherited result/error members', () => {
    const inheritedResult = Object.create({ result: { ok: true } }) as Record<string, unknown>;
    inheritedResult.id = 1;
    expect(classifyFrame(inheritedResult)).toEqual({ kind: 'unclassifiable', reason: 'id_only' });

    const inheritedError = Object.create({ error: { code: -32600, message: 'm' } }) as Record<
      string,
      unknown
    >;
    inheritedError.id = 1;
    expect(classifyFrame(inheritedError)).toEqual({ kind: 'unclassifiable', reason: 'id_only' });
  });

  it('does not count inherited members of the error body', () => {
    const body = Object.create({ code: -32600, message: 'm' }) as object;
    expect(classifyFrame({ id: 1, error: body })).toEqual({
      kind: 'unclassifiable',
      reason: 'bad_error_body',
    });
  });

  it('never throws: a frame with a throwing getter is unreadable', () => {
    const hostile = {
      id: 1,
      get result(): unknown {
        throw new Error('boom');
      },
    };
    expect(classifyFrame(hostile)).toEqual({ kind: 'unclassifiable', reason: 'unreadable' });
    const proxy = new Proxy(
      {},
      {
        getOwnPropertyDescriptor: () => {
          throw new Error('boom');
        },
      },
    );
    expect(classifyFrame(proxy)).toEqual({ kind: 'unclassifiable', reason: 'unreadable' });
  });

  it('treats a parsed "__proto__" member as data, not as a prototype', () => {
    const frame: unknown = JSON.parse('{"id":1,"__proto__":{"result":1}}');
    expect(classifyFrame(frame)).toEqual({ kind: 'unclassifiable', reason: 'id_only' });
  });
});

describe('classifyFrame: classified frames', () => {
  it('classifies a request (method + id), keeping params', () => {
    expect(classifyFrame({ id: 0, method: 'item/tool/call', params: { a: 1 } })).toEqual({
      kind: 'request',
      id: 0,
      method: 'item/tool/call',
      params: { a: 1 },
    });
  });

  it('classifies a notification (method, no id)', () => {
    expect(classifyFrame({ method: 'turn/started', params: { t: 1 }, emittedAtMs: 5 })).toEqual({
      kind: 'notification',
      method: 'turn/started',
      params: { t: 1 },
    });
    const bare = classifyFrame({ method: 'initialized' });
    expect(bare).toEqual({ kind: 'notification', method: 'initialized', params: undefined });
  });

  it('classifies a response, counting an explicit result: undefined as present', () => {
    expect(classifyFrame({ id: 3, result: { x: 1 } })).toEqual({
      kind: 'response',
      id: 3,
      result: { x: 1 },
    });
    expect(classifyFrame({ id: 3, result: null })).toEqual({
      kind: 'response',
      id: 3,
      result: null,
    });
    expect(classifyFrame({ id: 3, result: undefined })).toEqual({
      kind: 'response',
      id: 3,
      result: undefined,
    });
  });

  it('classifies an error, keeping code, message and data only', () => {
    expect(
      classifyFrame({
        id: 'a',
        error: { code: -32600, message: 'nope', data: { d: 1 }, extra: true },
      }),
    ).toEqual({ kind: 'error', id: 'a', error: { code: -32600, message: 'nope', data: { d: 1 } } });
    expect(classifyFrame({ id: 2, error: { code: 7.5, message: '' } })).toEqual({
      kind: 'error',
      id: 2,
      error: { code: 7.5, message: '' },
    });
  });

  it('tolerates and ignores a jsonrpc member', () => {
    expect(classifyFrame({ jsonrpc: '2.0', id: 1, result: 'r' })).toEqual({
      kind: 'response',
      id: 1,
      result: 'r',
    });
    expect(classifyFrame({ jsonrpc: 'bogus', method: 'm' })).toEqual({
      kind: 'notification',
      method: 'm',
      params: undefined,
    });
  });

  it('accepts string ids and every safe integer id', () => {
    for (const id of ['', 'abc', '1', 0, -5, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]) {
      expect(classifyFrame({ id, result: 1 })).toEqual({ kind: 'response', id, result: 1 });
    }
  });
});

describe('requestIdKey', () => {
  it('keeps the number 1 and the string "1" apart', () => {
    expect(requestIdKey(1)).not.toBe(requestIdKey('1'));
    expect(requestIdKey(1)).toBe(requestIdKey(1));
  });
});
