/**
 * A scripted app-server's thread history for `thread/turns/list` and `thread/revert`, as
 * 0.171.0 answers them (newest first by default; `turn not found` for a turn not in the history).
 */
type Frame = Record<string, unknown>;

export type HistoryAnswer = { result: unknown } | { error: { code: number; message: string } };

export class FakeThreadHistory {
  readonly #turnIds: string[] = [];

  add(turnId: string): void {
    this.#turnIds.push(turnId);
  }

  /** The answer to `method`, or undefined when it is not a history method. */
  answer(method: string, params: Frame | undefined): HistoryAnswer | undefined {
    if (method === 'thread/turns/list') {
      const limit = Math.max(1, typeof params?.['limit'] === 'number' ? params['limit'] : 25);
      const from = Number(params?.['cursor'] ?? 0);
      const newestFirst = [...this.#turnIds].reverse();
      const page = newestFirst.slice(from, from + limit);
      const more = from + limit < newestFirst.length;
      return {
        result: {
          data: page.map((id) => ({
            id,
            status: 'completed',
            items: [
              { type: 'userMessage', id: `${id}-u`, content: [{ type: 'text', text: 'earlier' }] },
              { type: 'agentMessage', id: `${id}-a`, text: 'answered' },
            ],
          })),
          nextCursor: more ? String(from + limit) : null,
        },
      };
    }
    if (method === 'thread/revert') {
      const at = this.#turnIds.indexOf(String(params?.['beforeTurnId']));
      if (at < 0) return { error: { code: -32600, message: 'turn not found' } };
      this.#turnIds.splice(at);
      return { result: { thread: { id: String(params?.['threadId']), turns: [] } } };
    }
    return undefined;
  }
}
