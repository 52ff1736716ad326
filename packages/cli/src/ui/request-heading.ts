/**
 * What a person sees before answering an approval or a question (`run`, `attach`): a heading
 * with the request's summary and the time left, then everything the answer grants.
 */
import type { InteractionRequest } from '@relvo-labs/agent-provider';
import { timeLeftLabel } from '../turn/expiry-label.js';
import { neutraliseLine } from './neutralise.js';
import type { Output } from './output.js';
import { subjectLines } from './subject.js';

/** The request's one-line summary, neutralised (the model and the workspace chose it). */
export function requestSummary(request: InteractionRequest): string {
  return neutraliseLine(
    request.kind === 'approval'
      ? request.subject.summary
      : request.kind === 'question'
        ? request.prompt
        : request.kind === 'tool_call'
          ? `call host tool ${request.tool}`
          : `${request.questions.length} question(s)`,
  );
}

/** Prints the heading and the whole subject on stderr; returns the summary. */
export function showRequest(
  out: Output,
  request: InteractionRequest,
  expiresAt: string | undefined,
): string {
  const summary = requestSummary(request);
  out.note('');
  const left = timeLeftLabel(expiresAt, Date.now());
  out.note(
    `${out.c.bold(out.c.cyan('?'))} codex asks: ${summary}${left && out.c.dim(` (${left})`)}`,
  );
  // the whole of what an answer grants, before any answer can be given (even by --yes)
  for (const line of subjectLines(request, process.stderr.columns)) out.note(line);
  return summary;
}
