/**
 * One contestant of bench/runtime.ts in a process of its own (forked by it): argv is the
 * contestant's name, timed turns per round and deltas per turn. It answers `ready`, then one
 * `timed` (or `failed`) per `round` message, and shuts its contestant down on `close`.
 */
import {
  CONTESTANTS,
  openContestant,
  type ContestantName,
  type Timed,
} from './support/runtime-contestants.js';

export type ChildRequest = { readonly type: 'round' } | { readonly type: 'close' };
export type ChildReply =
  | { readonly type: 'ready' }
  | { readonly type: 'timed'; readonly timed: Timed }
  | { readonly type: 'failed'; readonly message: string };

const send = (reply: ChildReply): void => {
  process.send?.(reply);
};

const [name, turns, deltas] = process.argv.slice(2);
if (!(CONTESTANTS as readonly string[]).includes(name ?? '') || process.send === undefined) {
  throw new Error('bench: runtime-child.ts is forked by bench/runtime.ts');
}
const contestant = await openContestant(name as ContestantName, {
  turns: Number(turns),
  deltas: Number(deltas),
});
// one message at a time: the parent waits for each reply before it sends again
process.on('message', (request: ChildRequest) => {
  if (request.type === 'close') {
    void contestant.close().finally(() => {
      process.disconnect();
    });
    return;
  }
  contestant.round().then(
    (timed) => {
      send({ type: 'timed', timed });
    },
    (error: unknown) => {
      send({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
    },
  );
});
send({ type: 'ready' });
