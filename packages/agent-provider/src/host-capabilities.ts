import type { CapabilityCheck } from './descriptor.js';
import { agentError } from './errors.js';
import type { ProviderDescriptor } from './schemas/descriptor.js';

/*
 * Capability checks of what a host adds to a session: its tools (docs/spi.md §11.4) and context
 * (docs/spi.md §6). A refusal is `capability_unsupported` naming the descriptor member.
 */

const OK: CapabilityCheck = Object.freeze({ ok: true });

/** Whether a session may declare `count` host tools (none always may). */
export function canDeclareHostTools(d: ProviderDescriptor, count: number): CapabilityCheck {
  if (count === 0) return OK;
  const { supported, maxTools } = d.interaction.toolCall;
  if (!supported) {
    return {
      ok: false,
      error: agentError('capability_unsupported', 'provider does not offer host tools', {
        details: { capability: 'interaction.toolCall' },
      }),
    };
  }
  if (count <= maxTools) return OK;
  return {
    ok: false,
    error: agentError('capability_unsupported', 'more host tools than the provider offers', {
      details: { capability: 'interaction.toolCall.maxTools', maxTools, requested: count },
    }),
  };
}

export function canInjectContext(d: ProviderDescriptor): CapabilityCheck {
  if (d.run.injectContext) return OK;
  return {
    ok: false,
    error: agentError('capability_unsupported', 'provider does not take injected context', {
      details: { capability: 'run.injectContext' },
    }),
  };
}
