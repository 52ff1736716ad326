/**
 * Error identity across two copies of the SPI (what a host gets when it `require`s one package
 * and `import`s another): the classes differ, the brand does not. A second copy of the module
 * is loaded under a query string, so its classes are new objects with the same registered keys.
 */
import { describe, expect, it } from 'vitest';
import {
  AgentRuntimeError,
  ProviderRejection,
  agentError,
  certaintyOf,
  isAgentRuntimeError,
  isProviderRejection,
  toAgentError,
} from '../src/index.js';

type ErrorsModule = typeof import('../src/errors.js');

async function secondCopy(): Promise<ErrorsModule> {
  const url = new URL('../src/errors.ts?second-copy', import.meta.url).href;
  return (await import(url)) as ErrorsModule;
}

const DTO = agentError('provider_rejected', 'refused', { providerCode: 'invalid_params' });
const BRAND = Symbol.for('@relvo-labs/agent-provider/ProviderRejection');

describe('a second copy of the SPI', () => {
  it('has other classes', async () => {
    const other = await secondCopy();
    expect(other.ProviderRejection).not.toBe(ProviderRejection);
    expect(Object.getPrototypeOf(new other.ProviderRejection(DTO))).not.toBe(
      ProviderRejection.prototype,
    );
  });

  it('makes rejections this copy reads as definite, both ways', async () => {
    const other = await secondCopy();
    const theirs = new other.ProviderRejection(DTO);
    expect(isProviderRejection(theirs)).toBe(true);
    expect(theirs instanceof ProviderRejection).toBe(true);
    expect(certaintyOf(theirs)).toBe('definite');
    expect(toAgentError(theirs)).toEqual(DTO);
    const ours = new ProviderRejection(DTO);
    expect(other.isProviderRejection(ours)).toBe(true);
    expect(other.certaintyOf(ours)).toBe('definite');
  });

  it('makes AgentRuntimeErrors this copy recognises, and tells them from rejections', async () => {
    const other = await secondCopy();
    const theirs = new other.AgentRuntimeError('session_closed', 'closed');
    expect(isAgentRuntimeError(theirs)).toBe(true);
    expect(theirs instanceof AgentRuntimeError).toBe(true);
    expect(toAgentError(theirs)).toEqual(agentError('session_closed', 'closed'));
    expect(isProviderRejection(theirs)).toBe(false);
    expect(certaintyOf(theirs)).toBe('unknown');
    expect(isAgentRuntimeError(new other.ProviderRejection(DTO))).toBe(false);
  });
});

describe('instanceof', () => {
  it('keeps the prototype check for a subclass', () => {
    class Refusal extends ProviderRejection {}
    expect(new Refusal(DTO) instanceof Refusal).toBe(true);
    expect(new Refusal(DTO) instanceof ProviderRejection).toBe(true);
    expect(new ProviderRejection(DTO) instanceof Refusal).toBe(false);
  });

  it('holds for a rejection built from an AgentError outside the bounds (it is clamped)', () => {
    const long = {
      code: 'provider_rejected',
      message: 'm'.repeat(5000),
      retryable: false,
    } as const;
    const rejection = new ProviderRejection(long);
    expect(rejection instanceof ProviderRejection).toBe(true);
    expect(rejection.agentError.message).toHaveLength(2000);
    const bogus = new ProviderRejection({ code: 'bogus', message: 'x' } as unknown as typeof DTO);
    expect(bogus.agentError.code).toBe('internal');
    expect(isProviderRejection(bogus)).toBe(true);
  });
});

describe('a brand on something else', () => {
  function branded(fields: PropertyDescriptorMap): object {
    const value = Object.create(Error.prototype, fields) as object;
    Object.defineProperty(value, BRAND, { value: 1 });
    return value;
  }
  const fixed = (value: unknown): PropertyDescriptor => ({ value, enumerable: true });

  it('is not a rejection without valid, fixed fields', () => {
    const frozenDto = Object.freeze({ ...DTO });
    const cases: Record<string, object> = {
      'no fields': branded({}),
      'no certainty': branded({ agentError: fixed(frozenDto) }),
      'unknown certainty': branded({ agentError: fixed(frozenDto), certainty: fixed('unknown') }),
      'an AgentError that does not parse': branded({
        agentError: fixed(Object.freeze({ code: 'bogus', message: 'x', retryable: false })),
        certainty: fixed('definite'),
      }),
      'an AgentError not frozen': branded({
        agentError: fixed({ ...DTO }),
        certainty: fixed('definite'),
      }),
      'a writable field': branded({
        agentError: { value: frozenDto, writable: true },
        certainty: fixed('definite'),
      }),
      'a getter': branded({ agentError: { get: () => frozenDto }, certainty: fixed('definite') }),
      'another brand version': (() => {
        const value = Object.create(null) as object;
        Object.defineProperty(value, BRAND, { value: 2 });
        Object.defineProperties(value, {
          agentError: fixed(frozenDto),
          certainty: fixed('definite'),
        });
        return value;
      })(),
      'a bare prototype': Object.create(ProviderRejection.prototype) as object,
    };
    for (const [what, value] of Object.entries(cases)) {
      expect(isProviderRejection(value), what).toBe(false);
      expect(value instanceof ProviderRejection, what).toBe(false);
      expect(certaintyOf(value), what).toBe('unknown');
      expect(toAgentError(value, 'provider_unavailable').code, what).toBe('provider_unavailable');
    }
    // the control: the same construction with valid fields is recognised
    const valid = branded({ agentError: fixed(frozenDto), certainty: fixed('definite') });
    expect(isProviderRejection(valid)).toBe(true);
  });

  it('never throws, whatever the traps do', () => {
    const trap = (): never => {
      throw new Error('trap');
    };
    const hostile = [
      new Proxy({}, { get: trap }),
      new Proxy(
        {},
        { getOwnPropertyDescriptor: trap, get: (_t, key) => (key === BRAND ? 1 : undefined) },
      ),
      new Proxy({}, { getPrototypeOf: trap }),
      branded({
        agentError: fixed(new Proxy(Object.freeze({ ...DTO }), { ownKeys: trap })),
        certainty: fixed('definite'),
      }),
    ];
    for (const value of hostile) {
      expect(() => isProviderRejection(value)).not.toThrow();
      expect(isProviderRejection(value)).toBe(false);
      expect(isAgentRuntimeError(value)).toBe(false);
      expect(value instanceof AgentRuntimeError).toBe(false);
      expect(toAgentError(value).code).toBe('internal');
    }
  });

  it('cannot be changed after it was checked', () => {
    const rejection = new ProviderRejection(DTO);
    expect(isProviderRejection(rejection)).toBe(true);
    expect(() => {
      (rejection as { agentError: unknown }).agentError = { code: 'bogus' };
    }).toThrow(TypeError);
    expect(() => Object.defineProperty(rejection, 'certainty', { value: 'unknown' })).toThrow(
      TypeError,
    );
    expect(Object.isFrozen(rejection.agentError)).toBe(true);
    expect(isProviderRejection(rejection)).toBe(true);
  });
});
