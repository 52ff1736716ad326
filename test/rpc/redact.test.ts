import { describe, expect, it } from 'vitest';
import { causeTokenOf } from '../../src/shared/cause-token.js';
import { REDACTED, redact } from '../../src/shared/redact.js';
import {
  DROP_REASONS,
  FENCE_REASONS,
  PROVIDER_CODES,
  REFUSAL_TOKENS,
  WIRE_CLASSIFICATIONS,
  isPinnedServerRequest as isPinnedServerRequestMethod,
} from '../../src/protocol/vocabulary.js';
import { DROP_REASONS as TRANSPORT_DROP_REASONS } from '../../src/transport/types.js';

describe('redact (docs/behaviour.md §10.5)', () => {
  const secrets = [
    'sk-abcdefghijklmnop',
    'sk-proj-AbCdEf0123456789_xyz',
    'ghp_abcdefghijklmnop1234',
    'gho_ABCDEFGHIJKLMNOP',
    'ghu_abcdefghijklmnop',
    'ghs_abcdefghijklmnop',
    'ghr_abcdefghijklmnop',
    'AKIAABCDEFGHIJKLMNOP',
    'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
  ];

  it.each(secrets)('replaces %s', (secret) => {
    const out = redact(`before ${secret} after`);
    expect(out).toBe(`before ${REDACTED} after`);
    expect(out).not.toContain(secret);
  });

  it('redacts several secrets in one text, including at the edges and after punctuation', () => {
    const text = `${secrets[0]!} key="${secrets[2]!}",token:${secrets[8]!}`;
    expect(redact(text)).toBe(`${REDACTED} key="${REDACTED}",token:${REDACTED}`);
  });

  it.each([
    'sk-short123',
    'ghp_tooShort',
    'ghx_abcdefghijklmnopqrstu',
    'AKIAabcdefghijklmnop',
    'eyes.are.blue',
    'the task-abcdefghijklmnopqrst id',
    'plain text with no credentials',
  ])('leaves %s alone', (text) => {
    expect(redact(text)).toBe(text);
  });

  it('is idempotent', () => {
    const once = redact(secrets.join(' '));
    expect(redact(once)).toBe(once);
  });
});

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
    expect(causeTokenOf(value)).toBe(token);
  });
});
