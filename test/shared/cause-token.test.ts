import { describe, expect, it } from 'vitest';
import { causeTokenOf as causeToken } from '../../src/shared/cause-token.js';

describe('causeToken', () => {
  it('maps allowlisted error codes and AbortError, everything else to unknown', () => {
    expect(
      causeToken(Object.assign(new Error('spawn /secret/path ENOENT'), { code: 'ENOENT' })),
    ).toBe('ENOENT');
    expect(causeToken({ code: 'EPIPE' })).toBe('EPIPE');
    expect(causeToken({ code: 'ERR_STREAM_PREMATURE_CLOSE' })).toBe('ERR_STREAM_PREMATURE_CLOSE');
    expect(causeToken(new DOMException('stop', 'AbortError'))).toBe('ABORT_ERR');
    expect(causeToken({ code: 'ABORT_ERR' })).toBe('ABORT_ERR');
    expect(causeToken({ code: 'EWHATEVER' })).toBe('unknown');
    expect(causeToken(new Error('ENOENT in the message only'))).toBe('unknown');
    expect(causeToken('ENOENT')).toBe('unknown');
    expect(causeToken(null)).toBe('unknown');
    const hostile = Object.defineProperty({}, 'code', {
      get() {
        throw new Error('boom');
      },
    });
    expect(causeToken(hostile)).toBe('unknown');
  });
});

describe('causeToken on values whose prototype cannot be read', () => {
  it('a revoked proxy reduces to unknown instead of throwing', () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    expect(causeToken(proxy)).toBe('unknown');
    const trap = new Proxy(
      {},
      {
        getPrototypeOf() {
          throw new Error('boom');
        },
      },
    );
    expect(causeToken(trap)).toBe('unknown');
  });
});

describe('causeTokenOf', () => {
  it.each([
    [Object.assign(new Error('x'), { code: 'ENOENT' }), 'ENOENT'],
    [
      Object.assign(new Error('x'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }),
      'ERR_STREAM_PREMATURE_CLOSE',
    ],
    [Object.assign(new Error('x'), { code: 'EWHATEVER' }), 'unknown'],
    [Object.assign(new Error('x'), { name: 'AbortError' }), 'ABORT_ERR'],
    [{ code: 'ABORT_ERR' }, 'ABORT_ERR'],
    [null, 'unknown'],
    ['ENOENT', 'unknown'],
  ])('%# → %s', (value, token) => {
    expect(causeToken(value)).toBe(token);
  });
});
