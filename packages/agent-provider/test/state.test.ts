import { describe, expect, it } from 'vitest';
import {
  RUN_STATE_TABLE,
  SESSION_STATE_TABLE,
  TURN_STATE_TABLE,
  canTransition,
  isCommandAllowed,
  isTerminal,
  nextStates,
  type StateTable,
} from '../src/index.js';
import {
  RUN_STATES,
  SESSION_COMMANDS,
  SESSION_COMMAND_MATRIX,
  SESSION_STATES,
  TURN_STATES,
} from '../src/state.js';

function edgeSet<S extends string>(table: StateTable<S>): string[] {
  return Object.entries<readonly string[]>(table)
    .flatMap(([from, tos]) => tos.map((to) => `${from}->${to}`))
    .sort();
}

describe('machines', () => {
  it.each([
    [
      'session',
      SESSION_STATE_TABLE,
      SESSION_STATES,
      [
        'opening->ready',
        'opening->failed',
        'ready->closing',
        'ready->failed',
        'closing->closed',
        'closing->failed',
      ],
      ['closed', 'failed'],
    ],
    [
      'turn (running->running included)',
      TURN_STATE_TABLE,
      TURN_STATES,
      [
        'accepted->running',
        'accepted->cancelled',
        'accepted->failed',
        'running->running',
        'running->completed',
        'running->failed',
        'running->cancelled',
      ],
      ['completed', 'failed', 'cancelled'],
    ],
    [
      'run',
      RUN_STATE_TABLE,
      RUN_STATES,
      [
        'queued->starting',
        'queued->interrupting',
        'queued->failed',
        'queued->interrupted',
        'starting->running',
        'starting->interrupting',
        'starting->failed',
        'running->awaiting_interaction',
        'running->interrupting',
        'running->succeeded',
        'running->failed',
        'awaiting_interaction->running',
        'awaiting_interaction->interrupting',
        'awaiting_interaction->failed',
        'interrupting->interrupted',
        'interrupting->succeeded',
        'interrupting->failed',
      ],
      ['succeeded', 'failed', 'interrupted'],
    ],
  ] as const)(
    'the %s machine has exactly the specified edges',
    (_, table, states, edges, terminal) => {
      const anyTable = table as StateTable<string>;
      expect(edgeSet(anyTable)).toEqual([...edges].sort());
      expect(states.filter((s: string) => isTerminal(anyTable, s))).toEqual(terminal);
    },
  );

  it('session: transitions and command matrix', () => {
    expect(canTransition(SESSION_STATE_TABLE, 'ready', 'closed')).toBe(false);
    expect(canTransition(SESSION_STATE_TABLE, 'opening', 'ready')).toBe(true);
    expect(SESSION_COMMAND_MATRIX).toEqual({
      opening: [],
      ready: ['submit_turn', 'interrupt_run', 'respond_to_interaction', 'close_session'],
      closing: ['interrupt_run', 'respond_to_interaction'],
      closed: [],
      failed: [],
    });
    expect(isCommandAllowed('closing', 'submit_turn')).toBe(false);
    expect(isCommandAllowed('closing', 'respond_to_interaction')).toBe(true);
    for (const state of ['opening', 'closed', 'failed'] as const) {
      for (const command of SESSION_COMMANDS) expect(isCommandAllowed(state, command)).toBe(false);
    }
  });

  it('run: the next states of interrupting, and no skipped start', () => {
    expect(nextStates(RUN_STATE_TABLE, 'interrupting')).toEqual([
      'interrupted',
      'succeeded',
      'failed',
    ]);
    expect(canTransition(RUN_STATE_TABLE, 'starting', 'succeeded')).toBe(false);
  });
});

describe('helpers on every table', () => {
  const tables = [SESSION_STATE_TABLE, TURN_STATE_TABLE, RUN_STATE_TABLE] as StateTable<string>[];

  it('terminal states have no outgoing edges and every target is a known state', () => {
    for (const table of tables) {
      for (const [state, targets] of Object.entries(table)) {
        expect(isTerminal(table, state)).toBe(targets.length === 0);
        for (const to of targets) expect(Object.hasOwn(table, to)).toBe(true);
      }
    }
  });

  it('unknown or inherited state names are never transitions', () => {
    for (const table of tables) {
      expect(canTransition(table, 'toString', 'ready')).toBe(false);
      expect(isTerminal(table, '__proto__')).toBe(false);
      expect(nextStates(table, 'constructor')).toEqual([]);
    }
  });

  it('tables are frozen', () => {
    for (const table of tables) {
      expect(Object.isFrozen(table)).toBe(true);
      for (const targets of Object.values(table)) expect(Object.isFrozen(targets)).toBe(true);
    }
    expect(Object.isFrozen(SESSION_COMMAND_MATRIX)).toBe(true);
  });
});
