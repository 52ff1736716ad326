/**
 * The adapter's own error classes are recognised by brand, so a transport failure or an RPC
 * outcome made by another copy of this package (its CommonJS build beside the ESM one) is read
 * the same. The second copy is the module loaded again under a query string.
 */
import { describe, expect, it } from 'vitest';
import {
  CodexRpcError,
  isAuthoritativeFailure,
  isCodexRpcError,
  wireRejection,
} from '../../src/rpc/errors.js';
import { causeTokenOf } from '../../src/shared/cause-token.js';
import { CodexTransportError, isCodexTransportError } from '../../src/shared/codex-error.js';

async function secondCopy<T>(path: string): Promise<T> {
  return (await import(new URL(`${path}?second-copy`, import.meta.url).href)) as T;
}

describe('CodexTransportError', () => {
  it('from another copy keeps its code token', async () => {
    const other = await secondCopy<typeof import('../../src/shared/codex-error.js')>(
      '../../src/shared/codex-error.ts',
    );
    expect(other.CodexTransportError).not.toBe(CodexTransportError);
    const theirs = new other.CodexTransportError('stdout_error', { cause: 'EPIPE' });
    expect(isCodexTransportError(theirs)).toBe(true);
    expect(theirs instanceof CodexTransportError).toBe(true);
    expect(causeTokenOf(theirs)).toBe('stdout_error');
  });

  it('is not recognised with a code or detail it could not have', () => {
    const error = new CodexTransportError('spawn_failed', { cause: 'ENOENT' });
    expect(isCodexTransportError(error)).toBe(true);
    expect(Object.isFrozen(error.detail)).toBe(true);
    const forged = Object.create(CodexTransportError.prototype) as object;
    Object.defineProperties(forged, {
      code: { value: 'made_up', enumerable: true },
      detail: { value: Object.freeze({}), enumerable: true },
    });
    expect(isCodexTransportError(forged)).toBe(false);
    expect(causeTokenOf(forged)).toBe('unknown');
  });
});

describe('CodexRpcError', () => {
  it('from another copy is an unknown outcome, and a rejection stays definite', async () => {
    const other =
      await secondCopy<typeof import('../../src/rpc/errors.js')>('../../src/rpc/errors.ts');
    expect(other.CodexRpcError).not.toBe(CodexRpcError);
    const theirs = new other.CodexRpcError('connection_lost', 'codex connection lost');
    expect(isCodexRpcError(theirs)).toBe(true);
    expect(theirs instanceof CodexRpcError).toBe(true);
    expect(theirs.certainty).toBe('unknown');
    expect(isAuthoritativeFailure(theirs)).toBe(false);
    expect(other.isAuthoritativeFailure(wireRejection('turn/start', { code: -32600 }))).toBe(true);
  });
});
