/**
 * `injectContext` (docs/behaviour.md §7.1f): the host's text items become `thread/inject_items`
 * messages the model sees from its next request on. Codex answers `{}` and sends no notification;
 * it accepts them while a turn runs too (measured on 0.171.0: the items join the turn's next
 * model request), so an active run does not refuse them here either.
 */
import { contextItemsSchema, type ContextItem } from '@relvo-labs/agent-provider';
import type { ReleaseCapabilities } from '../capabilities/gate.js';
import { CODEX_CLIENT_METHOD } from '../protocol/wire-names.js';
import type { CodexConnection } from '../rpc/connection.js';
import { codexRejection } from '../shared/codex-error.js';
import { callFailure } from './call-failure.js';
import type { SessionState } from './state.js';

export interface InjectContextDeps {
  readonly state: SessionState;
  readonly connection: CodexConnection;
  readonly capabilities?: ReleaseCapabilities | undefined;
}

/** A Responses API message, as `thread/inject_items` takes raw items. */
function nativeItem(item: ContextItem): Record<string, unknown> {
  return { type: 'message', role: item.role, content: [{ type: 'input_text', text: item.text }] };
}

export async function injectContext(deps: InjectContextDeps, items: unknown): Promise<void> {
  const { state, connection, capabilities } = deps;
  const parsed = contextItemsSchema.safeParse(items);
  if (!parsed.success) {
    throw codexRejection('invalid_request', 'the injected context is malformed', {
      details: { reason: 'invalid_context_items' },
    });
  }
  if (state.closing) throw codexRejection('session_closed', 'the codex session is closed');
  if (state.fence !== undefined) {
    throw codexRejection(
      'illegal_state_transition',
      'the codex session is fenced and must be disposed',
      {
        providerCode: 'session_fenced',
      },
    );
  }
  const lacking = capabilities?.refusal(['injectContext']);
  if (lacking !== undefined) throw lacking;
  try {
    await connection.request(CODEX_CLIENT_METHOD.threadInjectItems, {
      threadId: state.threadId,
      items: parsed.data.map(nativeItem),
    });
  } catch (error) {
    callFailure('context injection', error);
  }
}
