/**
 * One session as a person reads it (`relvo-codex log`, `relvo-codex attach`): what was asked, the model's
 * text, tool activity, each approval and how it ended, usage and outcomes, with the time of day.
 */
import type { EventEnvelope } from '@relvo-labs/agent-runtime';
import { describeResponse } from '../turn/answers.js';
import { describeTermination } from '../turn/summary.js';
import { describeToolActivity } from './activity.js';
import { neutraliseLine as n } from './neutralise.js';
import type { Output } from './output.js';

function clock(iso: string): string {
  // 2026-12-02T11:40:12.345Z → 11:40:12
  return iso.slice(11, 19);
}

function seconds(fromIso: string, toIso: string): string {
  const ms = Date.parse(toIso) - Date.parse(fromIso);
  return Number.isFinite(ms) ? `${(ms / 1000).toFixed(1)} s` : '?';
}

/**
 * Renders envelopes as they come (`log` hands it a whole session, `attach` a live one). `live`:
 * the model's text is written as it streams rather than gathered into one block per reply.
 */
export class TimelineRenderer {
  private text = '';
  private turns = 0;
  private usage = '';
  private readonly asked = new Map<string, string>();

  constructor(
    private readonly out: Output,
    private readonly live = false,
  ) {}

  private line(at: string, body: string): void {
    this.flush();
    this.out.print(`${this.out.c.dim(clock(at))} ${body}`);
  }

  /** Writes the text gathered so far (a whole reply ends with a newline). */
  flush(): void {
    if (this.text === '') return;
    const body = this.text.endsWith('\n') ? this.text : `${this.text}\n`;
    this.text = '';
    this.out.text(body);
  }

  push(e: EventEnvelope): void {
    const { c } = this.out;
    const p = e.payload;
    switch (p.type) {
      case 'session.opened':
        this.line(e.occurredAt, `session ${e.sessionId} opened · workspace ${n(p.workspace.root)}`);
        break;
      case 'turn.started': {
        this.turns += 1;
        const prompt = p.input.parts.map((part) =>
          part.type === 'text' ? part.text : `@${part.path}`,
        );
        this.line(
          e.occurredAt,
          `${c.bold(`turn ${this.turns}`)} on ${n(p.profile)} · you: ${n(prompt.join(' '))}`,
        );
        this.out.print(c.bold('codex:'));
        break;
      }
      case 'run.message_delta':
        if (this.live) this.out.text(p.text);
        else this.text += p.text;
        break;
      case 'run.tool_activity':
        this.line(e.occurredAt, n(describeToolActivity(p)));
        break;
      case 'interaction.requested': {
        this.asked.set(p.interactionId, e.occurredAt);
        const r = p.request;
        const what =
          r.kind === 'approval'
            ? `approval: ${n(r.subject.summary)}`
            : r.kind === 'question'
              ? `question: ${n(r.prompt)}`
              : `${r.questions.length} question(s)`;
        this.line(e.occurredAt, `${c.cyan('?')} ${what}`);
        break;
      }
      case 'interaction.settled': {
        const s = p.settlement;
        const outcome = s.response === undefined ? s.outcome : describeResponse(s.response);
        const since = this.asked.get(p.interactionId);
        const waited = since === undefined ? '' : c.dim(` after ${seconds(since, e.occurredAt)}`);
        this.line(e.occurredAt, `  → ${outcome}${waited}`);
        break;
      }
      case 'run.usage':
        this.usage = `${p.usage.inputTokens ?? 0} in, ${p.usage.outputTokens ?? 0} out, ${p.usage.totalTokens ?? 0} total`;
        break;
      case 'run.finished':
        this.line(e.occurredAt, `run ${describeTermination(p.termination)}`);
        if (this.usage !== '') this.out.print(`${' '.repeat(9)}tokens ${this.usage}`);
        this.usage = '';
        break;
      case 'turn.settled':
        this.line(
          e.occurredAt,
          `turn ${p.state}${p.error === undefined ? '' : `: ${p.error.code}`}`,
        );
        break;
      case 'diagnostic':
        if (p.level !== 'debug' && p.level !== 'info')
          this.line(e.occurredAt, c.dim(`codex ${p.level}: ${n(p.message)}`));
        break;
      case 'session.reverted':
        this.line(
          e.occurredAt,
          `undone: the last ${p.turns === 1 ? 'turn' : `${p.turns} turns`} taken back (files ${p.files})`,
        );
        break;
      case 'session.closed':
        this.line(e.occurredAt, `session closed (${p.reason})`);
        break;
      default:
        break;
    }
  }
}

export function printTimeline(events: readonly EventEnvelope[], out: Output): void {
  const renderer = new TimelineRenderer(out);
  for (const e of events) renderer.push(e);
  renderer.flush();
}
