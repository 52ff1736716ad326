/**
 * Words for what the server says in tokens: a session's owner and live state, and a refusal.
 * A token this page does not know is shown as it is, cut short (it is neutralised on writing).
 */
const OWNER: Readonly<Record<string, string>> = {
  this_runtime: 'this process',
  elsewhere: 'another process',
  none: 'no owner',
};

const LIVE: Readonly<Record<string, string>> = {
  running: 'running',
  waiting: 'waiting for an answer',
  idle: 'idle',
  stalled: 'stalled, no owner',
  closed: 'closed',
  failed: 'failed',
};

const REFUSAL: Readonly<Record<string, string>> = {
  session_unowned: 'no process carried it out in time; it was withdrawn and will not happen',
  command_outcome_unknown: 'the process that took it ended before saying whether it happened',
  interaction_settled: 'this was already answered',
  session_closed: 'the session is closed',
  session_busy: 'the session is running a turn',
  revert_unsupported: 'this session cannot undo (its provider keeps no saved thread)',
  no_active_run: 'nothing is running',
  unknown_session: 'no such session',
  unknown_interaction: 'no such question in this session',
  session_elsewhere: 'another process runs this session: its earlier turns are read there',
  session_not_open: 'no process runs this session now: resume it to read its earlier turns',
  history_unsupported: "this session's provider keeps no thread to read",
};

function token(value: string): string {
  return value.length > 64 ? `${value.slice(0, 64)}…` : value;
}

export function ownerText(owner: string): string {
  return OWNER[owner] ?? token(owner);
}

/** A waiting session says what it waits for: an approval, or a person's answer. */
export function liveText(state: string, waitingFor?: string): string {
  if (state === 'waiting' && waitingFor === 'approval') return 'waiting for approval';
  if (state === 'stalled' && waitingFor !== undefined) {
    return `stalled, ${waitingFor === 'approval' ? 'approval' : 'question'} open, no owner`;
  }
  return LIVE[state] ?? token(state);
}

/** `refused: <words> (<reason>)`: the reason token stays, for a person to look up. */
export function refusalText(reason: string): string {
  const words = REFUSAL[reason];
  return words === undefined ? `refused: ${token(reason)}` : `refused: ${words} (${reason})`;
}
