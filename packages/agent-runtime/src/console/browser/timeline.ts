/**
 * A session's timeline: its envelopes read from the stream (fetch, so the token goes in a
 * header) and drawn by render.ts in sequence order; a reconnect resumes at the next sequence,
 * bounded.
 */
import { authHeader } from './api.js';
import { byId, setStatus } from './dom.js';
import { internalToggle } from './internal.js';
import { TimelineView, type Envelope } from './render.js';

const view = {
  next: 1,
  stream: undefined as AbortController | undefined,
  drawn: undefined as TimelineView | undefined,
};

/** Reads the SSE blocks of one response; true when the server said the stream ended. */
async function readStream(res: Response): Promise<boolean> {
  if (res.body === null) return false;
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buf = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return false;
    buf += value;
    let i: number;
    while ((i = buf.indexOf('\n\n')) >= 0) {
      const blockText = buf.slice(0, i);
      buf = buf.slice(i + 2);
      let event = 'message';
      let data = '';
      for (const line of blockText.split('\n')) {
        if (line.startsWith('event: ')) event = line.slice(7);
        else if (line.startsWith('data: ')) data += line.slice(6);
      }
      if (event === 'end') return true;
      if (event !== 'envelope') continue;
      const env = JSON.parse(data) as Envelope;
      if (env.sequence === view.next) {
        view.drawn?.render(env);
        view.next += 1;
      }
    }
  }
}

export async function follow(sessionId: string, after: () => void): Promise<void> {
  view.stream?.abort();
  const ctrl = new AbortController();
  view.stream = ctrl;
  const timeline = byId('timeline');
  timeline.replaceChildren();
  if (timeline.parentElement?.querySelector('.internal-toggle') == null)
    timeline.before(internalToggle(timeline));
  view.drawn = new TimelineView(timeline, after);
  view.next = 1;
  const aborted = (): boolean => ctrl.signal.aborted;
  for (let attempt = 0; attempt < 30 && !aborted(); attempt++) {
    try {
      const res = await fetch(`/api/sessions/${sessionId}/stream?from=${String(view.next)}`, {
        headers: authHeader(),
        signal: ctrl.signal,
      });
      if (!res.ok) {
        setStatus(`stream refused (${String(res.status)})`);
        return;
      }
      if (await readStream(res)) {
        byId('timeline').dataset.ended = 'true';
        return;
      }
    } catch {
      if (aborted()) return;
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
}
