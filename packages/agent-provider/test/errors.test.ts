import { describe, expect, it } from 'vitest';
import {
  AGENT_ERROR_CODES,
  AgentRuntimeError,
  ProviderRejection,
  agentError,
  agentErrorSchema,
  isProviderRejection,
  toAgentError,
  type AgentErrorCode,
} from '../src/index.js';

const RETRYABLE = new Set<AgentErrorCode>([
  'provider_unavailable',
  'store_unavailable',
  'workspace_unavailable',
]);

describe('AGENT_ERROR_CODES', () => {
  it('has exactly the 23 closed codes', () => {
    expect(AGENT_ERROR_CODES).toHaveLength(23);
    expect(new Set(AGENT_ERROR_CODES).size).toBe(23);
    expect([...AGENT_ERROR_CODES].sort()).toEqual(
      [
        'invalid_request',
        'unknown_session',
        'unknown_turn',
        'unknown_run',
        'unknown_interaction',
        'illegal_state_transition',
        'command_id_conflict',
        'session_closed',
        'run_already_terminal',
        'interaction_already_settled',
        'interaction_expired',
        'capability_unsupported',
        'workspace_unavailable',
        'workspace_ownership_violation',
        'provider_not_registered',
        'provider_rejected',
        'provider_unavailable',
        'provider_contract_violation',
        'store_conflict',
        'store_unavailable',
        'subscriber_overflow',
        'cursor_out_of_range',
        'internal',
      ].sort(),
    );
  });
});

describe('agentError', () => {
  it.each(AGENT_ERROR_CODES)('%s gets the retryable flag from the code', (code) => {
    const error = agentError(code, 'something happened');
    expect(error.retryable).toBe(RETRYABLE.has(code));
    expect(agentErrorSchema.parse(error)).toEqual(error);
  });

  it('carries details and providerCode, frozen, and parses strictly', () => {
    const error = agentError('provider_rejected', 'no', {
      details: { a: [1] },
      providerCode: 'E42',
    });
    expect(error).toEqual({
      code: 'provider_rejected',
      message: 'no',
      retryable: false,
      details: { a: [1] },
      providerCode: 'E42',
    });
    expect(Object.isFrozen(error)).toBe(true);
    expect(Object.isFrozen(error.details)).toBe(true);
  });

  it('clamps to the bounds instead of throwing', () => {
    const error = agentError('internal', 'm'.repeat(5000), { providerCode: 'p'.repeat(500) });
    expect(error.message).toHaveLength(2000);
    expect(error.providerCode).toHaveLength(200);
    expect(agentError('internal', '').message).toBe('internal');
    expect(agentErrorSchema.safeParse(error).success).toBe(true);
  });

  it('leaves out details that are not JSON', () => {
    const details = { n: Number.NaN } as unknown as Record<string, number>;
    expect(agentError('internal', 'x', { details }).details).toBeUndefined();
  });
});

describe('AgentRuntimeError', () => {
  it('wraps a DTO and serialises to it', () => {
    const dto = agentError('unknown_run', 'no such run');
    const err = new AgentRuntimeError(dto, { cause: new Error('inner') });
    expect(err).toBeInstanceOf(Error);
    expect(err.name).toBe('AgentRuntimeError');
    expect(err.code).toBe('unknown_run');
    expect(err.message).toBe('no such run');
    expect(err.error).toEqual(dto);
    expect(err.toJSON()).toEqual(dto);
    expect(JSON.parse(JSON.stringify(err))).toEqual(dto);
    expect(err.cause).toBeInstanceOf(Error);
  });

  it('can be built from a code and message', () => {
    const err = new AgentRuntimeError('store_unavailable', 'store down', {
      details: { attempt: 2 },
    });
    expect(err.error).toEqual({
      code: 'store_unavailable',
      message: 'store down',
      retryable: true,
      details: { attempt: 2 },
    });
  });
});

describe('ProviderRejection', () => {
  it('is an Error carrying an AgentError', () => {
    const dto = agentError('capability_unsupported', 'cannot interrupt');
    const rejection = new ProviderRejection(dto, { cause: 'why' });
    expect(rejection).toBeInstanceOf(Error);
    expect(rejection.name).toBe('ProviderRejection');
    expect(rejection.message).toBe(dto.message);
    expect(rejection.agentError).toEqual(dto);
    expect(rejection.cause).toBe('why');
    expect(isProviderRejection(rejection)).toBe(true);
  });

  it('isProviderRejection wants the brand, not a look-alike', () => {
    const lookalike = {
      name: 'ProviderRejection',
      message: 'x',
      agentError: agentError('internal', 'x'),
    };
    expect(isProviderRejection(lookalike)).toBe(false);
    expect(isProviderRejection(new Error('x'))).toBe(false);
    expect(isProviderRejection(new AgentRuntimeError(agentError('internal', 'x')))).toBe(false);
    expect(isProviderRejection(null)).toBe(false);
  });
});

describe('toAgentError', () => {
  it('unwraps the SPI error types', () => {
    const dto = agentError('session_closed', 'closed');
    expect(toAgentError(new AgentRuntimeError(dto))).toEqual(dto);
    expect(toAgentError(new ProviderRejection(dto))).toEqual(dto);
  });

  it('accepts a value that already is an AgentError DTO', () => {
    expect(toAgentError({ code: 'unknown_turn', message: 'm' })).toEqual({
      code: 'unknown_turn',
      message: 'm',
      retryable: false,
    });
  });

  it('is lossy for anything else: no stack and no upstream text', () => {
    const upstream = new Error('SECRET upstream text');
    const converted = toAgentError(upstream);
    expect(converted.code).toBe('internal');
    expect(JSON.stringify(converted)).not.toContain('SECRET');
    expect(JSON.stringify(converted)).not.toContain('stack');
    expect(toAgentError('SECRET string', 'provider_unavailable')).toMatchObject({
      code: 'provider_unavailable',
      retryable: true,
    });
    expect(JSON.stringify(toAgentError('SECRET string'))).not.toContain('SECRET');
    expect(toAgentError({ code: 'bogus', message: 'SECRET' }).code).toBe('internal');
  });

  it('survives a hostile proxy', () => {
    const hostile = new Proxy(
      {},
      {
        getPrototypeOf() {
          throw new Error('trap');
        },
      },
    );
    expect(toAgentError(hostile, 'provider_contract_violation').code).toBe(
      'provider_contract_violation',
    );
  });
});
