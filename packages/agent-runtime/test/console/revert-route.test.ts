/**
 * The console's "Undo last turn": `POST /api/sessions/:id/revert` takes the session's last turn
 * back through the runtime (recorded in the log); refusals are reason tokens with a status: a
 * provider without revert, nothing left to take back.
 */
import { describe, expect, it } from 'vitest';
import { startConsole, type ConsoleServer } from '@relvo-labs/agent-runtime/console';
import { history, onCleanup, scriptedRuntime, types } from '../support.js';

async function post(server: ConsoleServer, path: string) {
  const res = await fetch(new URL(path, server.url), {
    method: 'POST',
    headers: { authorization: `Bearer ${server.token}` },
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

async function withConsole(supportsRevert: boolean) {
  const rt = await scriptedRuntime({ scripted: { supportsRevert } });
  const turn = await rt.session.submitTurn({ input: 'hello' });
  rt.scripted.controller.drain();
  await turn.done;
  const server = await startConsole({ runtime: rt.runtime, workspace: rt.workspace });
  onCleanup(() => server.close());
  return { ...rt, server };
}

describe('the console undoes the last turn', () => {
  it('takes it back once; a second undo has nothing left and is refused', async () => {
    const { server, runtime, session } = await withConsole(true);
    const path = `/api/sessions/${session.id}/revert`;
    expect(await post(server, path)).toEqual({ status: 202, json: { reverted: 1 } });
    expect(types(await history(runtime, session.id))).toContain('session.reverted');
    expect(await post(server, path)).toEqual({
      status: 400,
      json: { refused: 'provider_rejected' },
    });
  });

  it('a provider without revert: 409 revert_unsupported, nothing recorded', async () => {
    const { server, runtime, session } = await withConsole(false);
    expect(await post(server, `/api/sessions/${session.id}/revert`)).toEqual({
      status: 409,
      json: { refused: 'revert_unsupported' },
    });
    expect(types(await history(runtime, session.id))).not.toContain('session.revert_requested');
  });
});
