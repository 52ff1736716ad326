import {
  agentError,
  AgentRuntimeError,
  isProviderRejection,
  ProviderRejection,
} from '@relvo-labs/agent-provider';
import { describe, expect, it } from 'vitest';
import { WIRE_CLASSIFICATIONS } from '../../src/protocol/provider-codes.js';
import {
  classifyWireErrorCode,
  CodexRpcError,
  connectionClosedRejection,
  isAuthoritativeFailure,
  wireRejection,
} from '../../src/rpc/errors.js';

const CANARY = 'CANARY-upstream-prose-7731';

const rows = [
  [-32001, 'overloaded', true, 'provider_unavailable'],
  [-32600, 'invalid_request', false, 'provider_rejected'],
  [-32601, 'method_not_found', false, 'provider_rejected'],
  [-32602, 'invalid_params', false, 'provider_rejected'],
  [-32603, 'internal_error', true, 'provider_unavailable'],
  [-32700, 'parse_error', false, 'provider_rejected'],
  [-32000, 'unclassified', false, 'provider_rejected'],
  [0, 'unclassified', false, 'provider_rejected'],
  [1, 'unclassified', false, 'provider_rejected'],
  [-32600.5, 'unclassified', false, 'provider_rejected'],
] as const;

describe('wire error classification (docs/behaviour.md §4.2)', () => {
  it.each(rows)('code %d → %s (retryable %s, %s)', (code, classification, retryable, agentCode) => {
    expect(classifyWireErrorCode(code)).toEqual({ classification, retryable, agentCode });
    const rejection = wireRejection('turn/start', {
      code,
      message: `${CANARY} sk-abcdefghijklmnopqrstuvwx`,
      data: CANARY,
    } as {
      code: number;
    });
    expect(rejection).toBeInstanceOf(ProviderRejection);
    expect(rejection.name).toBe('ProviderRejection');
    expect(rejection.message).toBe(`codex rejected turn/start (${classification})`);
    expect(rejection.agentError).toMatchObject({
      code: agentCode,
      retryable,
      providerCode: classification,
      message: `codex rejected turn/start (${classification})`,
    });
    expect(JSON.stringify(rejection.agentError)).not.toContain(CANARY);
    expect(rejection.agentError.details).toBeUndefined();
    expect(isAuthoritativeFailure(rejection)).toBe(true);
  });

  it('names the turn/steer refusals measured on 0.171.0 by a token, never their text', () => {
    for (const message of [
      'no active turn to steer',
      'expected active turn id `not-the-turn` but found `019a-turn`',
    ]) {
      const rejection = wireRejection('turn/steer', { code: -32600, message });
      expect(rejection.agentError.details).toEqual({ refusal: 'no_active_turn' });
      expect(JSON.stringify(rejection.agentError)).not.toContain('found');
    }
    const empty = wireRejection('turn/steer', { code: -32600, message: 'input must not be empty' });
    expect(empty.agentError.details).toBeUndefined();
  });

  it('covers every wire classification token', () => {
    expect(new Set(rows.map((r) => r[1]))).toEqual(new Set(WIRE_CLASSIFICATIONS));
  });
});

describe('isAuthoritativeFailure', () => {
  it('is true for connection_closed', () => {
    const closed = connectionClosedRejection('turn/start');
    expect(isProviderRejection(closed)).toBe(true);
    expect(closed.agentError.providerCode).toBe('connection_closed');
    expect(isAuthoritativeFailure(closed)).toBe(true);
  });

  it('is false for uncertain failures and anything else', () => {
    const uncertain: unknown[] = [
      new CodexRpcError('request_timeout', 'codex turn/start timed out'),
      new CodexRpcError('connection_lost', 'codex connection lost during turn/start'),
      new AgentRuntimeError('provider_rejected', 'x', { providerCode: 'invalid_request' }),
      {
        agentError: {
          code: 'provider_rejected',
          message: 'x',
          retryable: false,
          providerCode: 'overloaded',
        },
      },
      new Error('invalid_request'),
      'overloaded',
      undefined,
    ];
    for (const value of uncertain) expect(isAuthoritativeFailure(value)).toBe(false);
  });

  it('reads the certainty the error was made with, not its providerCode', () => {
    // a rejection is definite whatever it carries; the same code on an unknown outcome is not
    const definite = [
      new ProviderRejection(
        agentError('provider_unavailable', 'x', { providerCode: 'session_fenced' }),
      ),
      new ProviderRejection(agentError('provider_rejected', 'x')),
    ];
    for (const value of definite) expect(isAuthoritativeFailure(value)).toBe(true);
    const timeout = new CodexRpcError('request_timeout', 'codex turn/start timed out');
    expect(isAuthoritativeFailure(timeout)).toBe(false);
    expect(isAuthoritativeFailure({ agentError: timeout.agentError, certainty: 'definite' })).toBe(
      false,
    );
  });

  it('marks timeouts and lost connections as retryable provider_unavailable, not rejections', () => {
    const timeout = new CodexRpcError('request_timeout', 'codex turn/start timed out');
    expect(isProviderRejection(timeout)).toBe(false);
    expect(timeout.certainty).toBe('unknown');
    expect(timeout.agentError).toMatchObject({
      code: 'provider_unavailable',
      retryable: true,
      providerCode: 'request_timeout',
    });
  });
});
