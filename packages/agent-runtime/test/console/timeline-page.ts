/// <reference lib="dom" />
/**
 * A timeline element in the test's DOM (happy-dom) with a view drawing into it, and the log its
 * envelopes come from.
 */
import { TimelineView } from '../../src/console/browser/render.js';
import { Log, type PayloadInput } from './timeline-log.js';

export class DrawnTimeline {
  readonly root: HTMLElement;
  readonly view: TimelineView;
  readonly log = new Log();

  constructor() {
    document.body.replaceChildren();
    this.root = document.createElement('div');
    this.root.id = 'timeline';
    document.body.append(this.root);
    this.view = new TimelineView(this.root, () => undefined);
  }

  /** One envelope drawn, not flushed (a message waits for the batch to end). */
  add(payload: PayloadInput, runId?: string): void {
    this.view.render(runId === undefined ? this.log.add(payload) : this.log.add(payload, runId));
  }

  /** Envelopes drawn as one batch, as the stream reads them. */
  feed(...payloads: PayloadInput[]): void {
    for (const p of payloads) this.add(p);
    this.view.flush();
  }

  /** A message delta of `text` drawn as one batch: the one message entry. */
  message(text: string): HTMLElement {
    this.feed({ type: 'run.message_delta', text });
    return this.one('.entry.message');
  }

  /** The one element matching `selector`; throws when there are none or several. */
  one(selector: string): HTMLElement {
    const all = this.root.querySelectorAll<HTMLElement>(selector);
    const only = all[0];
    if (all.length !== 1 || only === undefined)
      throw new Error(`${String(all.length)} elements match ${selector}`);
    return only;
  }
}
