import { z } from 'zod';

/*
 * docs/spi.md §17 state machines. A table maps each state to the states it may move to;
 * terminal states map to an empty list.
 */

export type StateTable<S extends string> = { readonly [K in S]: readonly S[] };

function table<S extends string>(t: { [K in S]: readonly S[] }): StateTable<S> {
  for (const key of Object.keys(t) as S[]) Object.freeze(t[key]);
  return Object.freeze(t);
}

export const SESSION_STATES = ['opening', 'ready', 'closing', 'closed', 'failed'] as const;
export const sessionStateSchema = z.enum(SESSION_STATES);
export type SessionState = z.infer<typeof sessionStateSchema>;

export const SESSION_STATE_TABLE: StateTable<SessionState> = table<SessionState>({
  opening: ['ready', 'failed'],
  ready: ['closing', 'failed'],
  closing: ['closed', 'failed'],
  closed: [],
  failed: [],
});

export const SESSION_COMMANDS = [
  'submit_turn',
  'interrupt_run',
  'respond_to_interaction',
  'close_session',
] as const;
export const sessionCommandSchema = z.enum(SESSION_COMMANDS);
export type SessionCommand = z.infer<typeof sessionCommandSchema>;

export const SESSION_COMMAND_MATRIX: { readonly [K in SessionState]: readonly SessionCommand[] } =
  Object.freeze({
    opening: Object.freeze([]),
    ready: Object.freeze([
      'submit_turn',
      'interrupt_run',
      'respond_to_interaction',
      'close_session',
    ] as const),
    closing: Object.freeze(['interrupt_run', 'respond_to_interaction'] as const),
    closed: Object.freeze([]),
    failed: Object.freeze([]),
  });

export function isCommandAllowed(state: SessionState, command: SessionCommand): boolean {
  return (
    Object.hasOwn(SESSION_COMMAND_MATRIX, state) && SESSION_COMMAND_MATRIX[state].includes(command)
  );
}

export const TURN_STATES = ['accepted', 'running', 'completed', 'failed', 'cancelled'] as const;
export const turnStateSchema = z.enum(TURN_STATES);
export type TurnState = z.infer<typeof turnStateSchema>;

export const TURN_STATE_TABLE: StateTable<TurnState> = table<TurnState>({
  accepted: ['running', 'cancelled', 'failed'],
  // running -> running: a new run after an interrupt.
  running: ['running', 'completed', 'failed', 'cancelled'],
  completed: [],
  failed: [],
  cancelled: [],
});

export const RUN_STATES = [
  'queued',
  'starting',
  'running',
  'awaiting_interaction',
  'interrupting',
  'succeeded',
  'failed',
  'interrupted',
] as const;
export const runStateSchema = z.enum(RUN_STATES);
export type RunState = z.infer<typeof runStateSchema>;

export const RUN_STATE_TABLE: StateTable<RunState> = table<RunState>({
  queued: ['starting', 'interrupting', 'failed', 'interrupted'],
  starting: ['running', 'interrupting', 'failed'],
  running: ['awaiting_interaction', 'interrupting', 'succeeded', 'failed'],
  awaiting_interaction: ['running', 'interrupting', 'failed'],
  // Natural completion may win the race against an interrupt.
  interrupting: ['interrupted', 'succeeded', 'failed'],
  succeeded: [],
  failed: [],
  interrupted: [],
});

function edges<S extends string>(t: StateTable<S>, state: S): readonly S[] | undefined {
  return Object.hasOwn(t, state) ? t[state] : undefined;
}

export function canTransition<S extends string>(t: StateTable<S>, from: S, to: S): boolean {
  return edges(t, from)?.includes(to) ?? false;
}

export function isTerminal<S extends string>(t: StateTable<S>, state: S): boolean {
  return edges(t, state)?.length === 0;
}

export function nextStates<S extends string>(t: StateTable<S>, state: S): readonly S[] {
  return edges(t, state) ?? [];
}
