/** Default locations `relvo-codex` uses on the person's machine. */
import { homedir } from 'node:os';
import { join } from 'node:path';

export const EVENT_LOG_ENV = 'RELVO_CODEX_EVENT_LOG';
export const DEFAULT_CONFIG_FILE = 'relvo.config.json';

/** `$RELVO_CODEX_EVENT_LOG`, else `$XDG_STATE_HOME/relvo-codex/events.sqlite` (~/.local/state). */
export function defaultEventLogPath(env: NodeJS.ProcessEnv = process.env): string {
  const explicit = env[EVENT_LOG_ENV];
  if (explicit !== undefined && explicit !== '') return explicit;
  const state = env.XDG_STATE_HOME;
  const base =
    state !== undefined && state !== '' ? state : join(env.HOME ?? homedir(), '.local', 'state');
  return join(base, 'relvo-codex', 'events.sqlite');
}
