/**
 * `session.injectContext(items, { profile })`: text the profile's model sees from its next
 * request on, without a turn. Like every host command that changes what the provider does, it is
 * recorded (`context.injected`) and durable under the lease before the provider gets it
 * (ADR-0046); a provider that does not declare `run.injectContext` refuses it first.
 */
import {
  canInjectContext,
  contextItemsSchema,
  type ContextItem,
  type ProviderSession,
} from '@relvo-labs/agent-provider';
import { RuntimeError } from '../errors.js';
import type { SessionLog } from './log.js';
import type { ProviderSessionPool } from './pool.js';
import { providerCallError } from './provider-call.js';

export async function injectContext(
  pool: ProviderSessionPool,
  log: SessionLog,
  items: unknown,
  profile: string,
): Promise<void> {
  const parsed = contextItemsSchema.safeParse(items);
  if (!parsed.success) {
    throw new RuntimeError('invalid_request', 'context_invalid', 'the context items are malformed');
  }
  const entry = await pool.get(profile);
  const session: ProviderSession = entry.session;
  const inject = session.injectContext?.bind(session);
  if (!canInjectContext(entry.resolved.descriptor).ok || inject === undefined) {
    throw new RuntimeError(
      'capability_unsupported',
      'inject_context_unsupported',
      'the provider does not take injected context',
      { details: { profile } },
    );
  }
  const logged: ContextItem[] = parsed.data;
  log.append({ type: 'context.injected', profile, items: logged });
  await log.durable();
  try {
    await inject(logged);
  } catch (error) {
    throw providerCallError(error, 'context injection');
  }
}
