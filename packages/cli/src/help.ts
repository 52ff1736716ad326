/** The examples `--help` shows, and the version line that names the pinned codex. */
import { CODEX_APP_SERVER_VERSION } from '@relvo-labs/agent-provider-codex';
import { windowRange } from './codex/version.js';
import { CLI_VERSION } from './version.js';

export const PROGRAM_EXAMPLES = `Examples:
  $ relvo-codex demo                       one credential-free turn against a scripted model
  $ relvo-codex run "Explain src/index.ts"  a real turn with your codex login
  $ git diff | relvo-codex run -            the prompt from stdin
  $ relvo-codex models                     which models your codex offers
  $ relvo-codex doctor                     is codex installed, reviewed and working?
  $ relvo-codex sessions                   what the event log holds
  $ relvo-codex attach ses_1a2b            follow a running session, answer its approvals
  $ relvo-codex serve                      a web console: sessions, approvals, timelines`;

export const RUN_EXAMPLES = `Examples:
  $ relvo-codex run "Explain src/index.ts"
  $ relvo-codex run "Fix the failing test" --profile codex-workspace-write-with-approvals
  $ relvo-codex run -m gpt-5 --cwd ../other-repo "Summarise the README"
  $ relvo-codex run --effort high "Find the race in src/queue.ts"
  $ relvo-codex run - < prompt.txt --ephemeral --json | jq .payload.type
  $ relvo-codex run --resume ses_1a2b "Go on"   (continue a session a killed run left open)
  $ PGPASSWORD=... relvo-codex run "Go" --event-store postgres://relvo@db.internal/agents`;

export const SERVE_EXAMPLES = `Examples:
  $ relvo-codex serve                      prints the page's address with its token, once
  $ relvo-codex serve --port 8377 --cwd ../repo --profile codex-workspace-write-with-approvals
  $ RELVO_CODEX_CONSOLE_TOKEN=... relvo-codex serve   a token of your own (never printed)
  $ relvo-codex serve --event-store postgres://relvo@db.internal/agents   the fleet's shared log`;

export const HISTORY_EXAMPLES = `Examples:
  $ relvo-codex sessions
  $ relvo-codex log ses_1a2b          (a unique prefix of the id will do)
  $ relvo-codex log ses_1a2b --json | jq -c .payload
  $ relvo-codex run --resume ses_1a2b "Go on"   (a session with RESUMABLE yes)
  $ relvo-codex sessions --event-store postgres://relvo@db.internal/agents`;

export const ATTACH_EXAMPLES = `Examples:
  $ relvo-codex sessions              (a live session reads "ready" or "running")
  $ relvo-codex attach ses_1a2b       (a unique prefix of the id will do)
  $ relvo-codex attach ses_1a2b --event-store postgres://relvo@db.internal/agents
Ctrl-C detaches (exit 130) and leaves the session running; when it ends, attach exits 0.`;

/** `relvo-codex --version`: this CLI, then the codex it runs unless told otherwise. */
export const VERSION_TEXT = `${CLI_VERSION}
codex ${CODEX_APP_SERVER_VERSION} pinned · reviewed window ${windowRange()}`;
