/** The one protocol vocabulary: closed token lists, no duplicates, the pinned methods only. */
import { describe, expect, it } from 'vitest';
import {
  DROP_REASONS,
  FENCE_REASONS,
  PROVIDER_CODES,
  REFUSAL_TOKENS,
  WIRE_CLASSIFICATIONS,
  isPinnedServerRequest as isPinnedServerRequestMethod,
} from '../../src/protocol/vocabulary.js';
import { DROP_REASONS as TRANSPORT_DROP_REASONS } from '../../src/transport/types.js';

describe('token vocabularies', () => {
  it('re-exports the transport drop reasons', () => {
    expect(DROP_REASONS).toBe(TRANSPORT_DROP_REASONS);
  });

  it('provider codes include every wire classification and the client codes, without duplicates', () => {
    for (const code of [
      ...WIRE_CLASSIFICATIONS,
      'request_timeout',
      'connection_lost',
      'connection_closed',
    ]) {
      expect(PROVIDER_CODES).toContain(code);
    }
    expect(new Set(PROVIDER_CODES).size).toBe(PROVIDER_CODES.length);
    expect(new Set(REFUSAL_TOKENS).size).toBe(REFUSAL_TOKENS.length);
    expect(FENCE_REASONS).toContain('server_request_ledger_overflow');
  });

  it('knows the pinned server-request methods only', () => {
    expect(isPinnedServerRequestMethod('item/tool/requestUserInput')).toBe(true);
    expect(isPinnedServerRequestMethod('item/tool/requestUserInput ')).toBe(false);
    expect(isPinnedServerRequestMethod('__proto__')).toBe(false);
  });
});
