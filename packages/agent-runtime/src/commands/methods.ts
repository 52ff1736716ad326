/**
 * The runtime's session-addressed methods (ADR-0052): each checks its arguments here, in the
 * caller's process, then goes through the router, which carries it out locally or routes it.
 */
import type { AgentInteraction, InteractionResponse, TurnInput } from '@relvo-labs/agent-provider';
import { RuntimeError } from '../errors.js';
import { readSessionHistory } from '../history.js';
import type { AgentRuntime, RoutedTurn, SessionOwnership } from '../runtime-api.js';
import type { RevertOptions } from '../session/revert.js';
import type { RuntimeSession, SubmitTurnOptions } from '../session/session.js';
import type { EventStore } from '../store/types.js';
import { commandBodySchema, type CommandBody } from './body.js';
import type { CommandRouter } from './router.js';

type RoutedMethods = Pick<
  AgentRuntime,
  | 'respond'
  | 'interrupt'
  | 'steer'
  | 'submitTurn'
  | 'closeSession'
  | 'revert'
  | 'pendingInteractions'
  | 'sessionOwners'
>;

function checked(body: unknown): CommandBody {
  const parsed = commandBodySchema.safeParse(body);
  if (!parsed.success) {
    // the body's own values are not echoed: only which kind of command was refused
    throw new RuntimeError('invalid_request', 'command_invalid', 'the command is malformed', {
      details: { issues: parsed.error.issues.length },
    });
  }
  return parsed.data;
}

export function routedMethods(
  router: CommandRouter,
  store: EventStore,
  live: (sessionId: string) => RuntimeSession | undefined,
  liveIds: () => Iterable<string>,
): RoutedMethods {
  const send = async (sessionId: string, body: unknown): Promise<RoutedTurn | undefined> =>
    router.route(sessionId, checked(body));
  return {
    async respond(sessionId: string, interactionId: string, response: InteractionResponse) {
      await send(sessionId, { kind: 'respond', interactionId, response });
    },
    async interrupt(sessionId: string, reason?: string) {
      await send(
        sessionId,
        reason === undefined ? { kind: 'interrupt' } : { kind: 'interrupt', reason },
      );
    },
    async steer(sessionId: string, input: string | TurnInput) {
      await send(sessionId, { kind: 'steer', input });
    },
    async submitTurn(sessionId: string, options: SubmitTurnOptions) {
      const turn = await send(sessionId, { kind: 'submit_turn', options });
      if (turn === undefined) {
        throw new RuntimeError(
          'internal',
          'command_invalid',
          'the turn was settled without its ids',
        );
      }
      return turn;
    },
    async closeSession(sessionId: string) {
      await send(sessionId, { kind: 'close' });
    },
    async revert(sessionId: string, options: RevertOptions) {
      const { turns, profile } = options;
      await send(sessionId, {
        kind: 'revert',
        turns,
        ...(profile === undefined ? {} : { profile }),
      });
    },
    async pendingInteractions(sessionId: string): Promise<readonly AgentInteraction[]> {
      const session = live(sessionId);
      if (session !== undefined) return session.pendingInteractions();
      if ((await store.getSession(sessionId)) === undefined) {
        throw new RuntimeError('unknown_session', 'unknown_session', 'no such session');
      }
      const history = await readSessionHistory(store, sessionId);
      return [...history.pending.values()];
    },
    async sessionOwners() {
      const out = new Map<string, SessionOwnership>();
      const owners = await store.commands?.owners();
      if (owners !== undefined) {
        for (const [id, o] of owners) out.set(id, o.self ? 'this_runtime' : 'elsewhere');
      }
      for (const id of liveIds()) out.set(id, 'this_runtime');
      return out;
    },
  };
}
