/**
 * `/undo` at the follow-up prompt: the interrupted turn is taken out of the conversation
 * (`session.revert`, codex's `thread/revert`), so the next turn's model does not see it. codex
 * leaves the files that turn changed as they are, and the line says so.
 */
import { isRuntimeError, type RuntimeSession } from '@relvo-labs/agent-runtime';
import type { Output } from '../ui/output.js';

export const UNDO_COMMAND = '/undo';

type FollowUp = { readonly text: string } | 'quit' | undefined;

async function undoLastTurn(session: Pick<RuntimeSession, 'revert'>, out: Output): Promise<void> {
  try {
    const result = await session.revert({ turns: 1 });
    out.note(
      result.files === 'kept'
        ? '  undone: the last turn is out of the conversation; files it changed stay as they are'
        : '  undone: the last turn is out of the conversation and its file changes are undone',
    );
  } catch (error) {
    // the reason token only: a refusal's prose is not the terminal's to show
    out.warn(`  not undone (${isRuntimeError(error) ? error.reason : 'unknown'})`);
  }
}

/** Asks for a follow-up; `/undo` takes the last turn back and asks again. */
export async function followUpOrUndo(
  ask: () => Promise<FollowUp>,
  session: Pick<RuntimeSession, 'revert'>,
  out: Output,
): Promise<FollowUp> {
  for (;;) {
    const next = await ask();
    if (next === undefined || next === 'quit' || next.text.trim() !== UNDO_COMMAND) return next;
    await undoLastTurn(session, out);
  }
}
