import { isProviderRejection, isRetryableCode } from '../../errors.js';
import type { ProviderDescriptor } from '../../schemas/descriptor.js';
import { agentErrorSchema } from '../../schemas/error.js';
import type { ProviderEventPayload } from '../../schemas/events.js';
import type { InteractionRequest } from '../../schemas/interaction.js';
import { fail, type CheckContext } from './context.js';
import { APPLIES, type CheckDefinition } from './plan.js';
import { tour } from './tour.js';

function requestProblems(request: InteractionRequest, d: ProviderDescriptor): string[] {
  const q = d.interaction.question;
  const problems: string[] = [];
  switch (request.kind) {
    case 'approval': {
      const a = d.interaction.approval;
      if (!a.supported) problems.push('an approval was raised but approvals are not declared');
      const extra = request.allowedModes.filter((m) => !a.modes.includes(m));
      if (extra.length > 0)
        problems.push(`allowedModes ${extra.join(', ')} are not among the declared approval modes`);
      return problems;
    }
    case 'question':
      if (!q.supported) problems.push('a question was raised but questions are not declared');
      if (request.choices !== undefined && !q.choices)
        problems.push('a question offers choices but choices are not declared');
      if (request.multiSelect && !q.multiSelect)
        problems.push('a multi-select question was raised but multiSelect is not declared');
      return problems;
    case 'question_set':
      if (!q.supported || !q.batch)
        problems.push('a question_set was raised but batch questions are not declared');
      if (q.maxQuestions !== null && request.questions.length > q.maxQuestions) {
        problems.push(
          `a question_set of ${String(request.questions.length)} exceeds maxQuestions ${String(q.maxQuestions)}`,
        );
      }
      for (const item of request.questions) {
        if (item.choices !== undefined && !q.choices)
          problems.push('a question offers choices but choices are not declared');
        if (item.multiSelect && !q.multiSelect)
          problems.push('a multi-select question was raised but multiSelect is not declared');
        if (item.allowFreeText && item.choices !== undefined && !q.freeText)
          problems.push('a question allows free text but freeText is not declared');
        if (item.sensitive && !q.sensitive)
          problems.push('a question is marked sensitive but sensitive is not declared');
      }
      return problems;
    case 'tool_call':
      if (!d.interaction.toolCall.supported)
        problems.push('a tool call was raised but host tools are not declared');
      return problems;
  }
}

function capabilityProblems(payload: ProviderEventPayload, d: ProviderDescriptor): string[] {
  const s = d.run.streaming;
  switch (payload.type) {
    case 'run.message_delta':
      return s.messageDeltas
        ? []
        : ['a message delta was emitted but messageDeltas is not declared'];
    case 'run.tool_activity':
      return s.toolActivity ? [] : ['tool activity was emitted but toolActivity is not declared'];
    case 'run.usage':
      return s.incrementalUsage ? [] : ['usage was emitted but incrementalUsage is not declared'];
    case 'interaction.requested':
      return requestProblems(payload.request, d);
    default:
      return [];
  }
}

/** Every AgentError the provider produced: rejections and failed terminations. */
function producedErrors(ctx: CheckContext): { where: string; error: unknown }[] {
  const found: { where: string; error: unknown }[] = [];
  for (const { where, error } of ctx.errors) {
    if (isProviderRejection(error)) found.push({ where, error: error.agentError });
  }
  for (const opened of ctx.sessions) {
    for (const run of opened.runs) {
      const outcome = run.outcome;
      if (outcome?.ok === true && outcome.value.outcome === 'failed') {
        found.push({ where: 'a failed run termination', error: outcome.value.error });
      }
    }
  }
  return found;
}

/** Text a caller must never find echoed: error messages, details, provider codes and diagnostics. */
function publishedTexts(ctx: CheckContext): { where: string; text: string }[] {
  const texts: { where: string; text: string }[] = [];
  for (const { where, error } of producedErrors(ctx))
    texts.push({ where: `the error of ${where}`, text: JSON.stringify(error) });
  for (const { where, error } of ctx.errors) {
    if (!isProviderRejection(error) && error instanceof Error)
      texts.push({ where: `the thrown error of ${where}`, text: error.message });
  }
  for (const sink of ctx.allSinks()) {
    for (const emission of sink.emissions) {
      const payload = emission.captured as { payload?: { type?: unknown } } | undefined;
      if (payload?.payload?.type === 'diagnostic')
        texts.push({
          where: `a diagnostic on the ${sink.label} sink`,
          text: JSON.stringify(emission.captured),
        });
    }
  }
  return texts;
}

export const eventChecks: readonly CheckDefinition[] = [
  {
    id: 'events.schema',
    area: 'events',
    title:
      'every emission is a JSON-safe strict ProviderEventInput without runtime-stamped members, within bounds',
    applies: () => APPLIES,
    async run(ctx, plan) {
      await tour(ctx, plan);
      const violations = ctx.allSinks().flatMap((sink) => sink.violations);
      if (violations.length > 0)
        fail(
          `${String(violations.length)} invalid emission(s): ${violations.slice(0, 3).join(' | ')}`,
        );
    },
  },
  {
    id: 'events.capabilities',
    area: 'events',
    title:
      'emissions match the descriptor: nothing undeclared, question sets within maxQuestions, approval modes declared',
    applies: () => APPLIES,
    async run(ctx, plan) {
      await tour(ctx, plan);
      const problems = new Set(
        ctx.allPayloads().flatMap((p) => capabilityProblems(p, ctx.descriptor)),
      );
      if (problems.size > 0) fail([...problems].slice(0, 3).join('; '));
    },
  },
  {
    id: 'events.extensions',
    area: 'events',
    title:
      "run.extension events use the provider's own id as their namespace and appear on a run's sink only",
    applies: () => APPLIES,
    async run(ctx, plan) {
      await tour(ctx, plan);
      const own = ctx.descriptor.providerId;
      for (const opened of ctx.sessions) {
        if (opened.sink.payloads().some((p) => p.type === 'run.extension'))
          fail('a run.extension was emitted on the session sink; it belongs to a run');
        for (const payload of opened.runs.flatMap((r) => r.sink.payloads())) {
          if (payload.type === 'run.extension' && payload.namespace !== own)
            fail(`a run.extension uses namespace ${payload.namespace}, not the provider id ${own}`);
        }
      }
    },
  },
  {
    id: 'events.after-completion',
    area: 'events',
    title: "no emission happens on a run's sink after its completion has settled",
    applies: () => APPLIES,
    async run(ctx, plan) {
      await tour(ctx, plan);
      for (const opened of ctx.sessions) {
        for (const run of opened.runs) {
          const stale = run.sink.emissions.filter((e) => e.stale);
          if (stale.length > 0) {
            const types = stale.map((e) => e.payload?.type ?? 'invalid').join(', ');
            fail(
              `the ${run.sink.label} sink received ${String(stale.length)} emission(s) after completion settled (${types})`,
            );
          }
        }
      }
    },
  },
  {
    id: 'events.provider-refs',
    area: 'events',
    title:
      'providerRefs are 1..200 and unique per session; interaction.withdrawn names only a raised, unanswered ref',
    applies: () => APPLIES,
    async run(ctx, plan) {
      const answered = await tour(ctx, plan);
      for (const opened of ctx.sessions) {
        const emissions = opened.runs
          .flatMap((r) => r.sink.emissions)
          .sort((a, b) => a.order - b.order);
        const raised = new Map<string, number>();
        for (const emission of emissions) {
          const payload = emission.payload;
          if (payload?.type === 'interaction.requested') {
            if (raised.has(payload.providerRef))
              fail('a providerRef was raised twice within one session');
            raised.set(payload.providerRef, emission.order);
          } else if (payload?.type === 'interaction.withdrawn') {
            if (!raised.has(payload.providerRef))
              fail('interaction.withdrawn names a ref that was never raised');
            const answeredAt = answered.get(payload.providerRef);
            if (answeredAt !== undefined && answeredAt < emission.order) {
              fail('interaction.withdrawn names a ref that was already answered');
            }
          }
        }
      }
    },
  },
  {
    id: 'secrecy.no-echo',
    area: 'secrecy',
    title:
      'no error or diagnostic contains a caller-supplied ref, answer, key, prompt or secret marker',
    applies: () => APPLIES,
    async run(ctx, plan) {
      await tour(ctx, plan);
      const markers = [
        ...ctx.callerMarkers.map((m) => ({
          kind: `caller value (${m.split('_')[1] ?? 'value'})`,
          value: m,
        })),
        ...(ctx.harness.secretMarkers ?? []).map((m) => ({
          kind: 'harness secret marker',
          value: m,
        })),
      ].filter((m) => m.value.length > 0);
      for (const { where, text } of publishedTexts(ctx)) {
        const leaked = markers.find((m) => text.includes(m.value));
        if (leaked !== undefined) fail(`${where} contains a ${leaked.kind}`);
      }
    },
  },
  {
    id: 'secrecy.native-ids',
    area: 'secrecy',
    title: 'no event contains a provider-native identifier supplied by the harness',
    applies: (plan) =>
      (plan.harness.nativeIdentifiers ?? []).some((id) => id.length > 0)
        ? APPLIES
        : {
            applies: false,
            reason: 'harness cannot exercise native identifiers: it supplied none',
          },
    async run(ctx, plan) {
      await tour(ctx, plan);
      const ids = (ctx.harness.nativeIdentifiers ?? []).filter((id) => id.length > 0);
      for (const sink of ctx.allSinks()) {
        for (const emission of sink.emissions) {
          const text = JSON.stringify(emission.captured ?? null);
          if (ids.some((id) => text.includes(id))) {
            fail(
              `a ${emission.payload?.type ?? 'malformed'} emission on the ${sink.label} sink contains a native identifier`,
            );
          }
        }
      }
    },
  },
  {
    id: 'errors.agent-errors',
    area: 'errors',
    title:
      'every AgentError uses one of the 23 codes, a message of 1..2000, providerCode ≤200 and consistent retryable',
    applies: () => APPLIES,
    async run(ctx, plan) {
      await tour(ctx, plan);
      for (const { where, error } of producedErrors(ctx)) {
        const parsed = agentErrorSchema.safeParse(error);
        if (!parsed.success) {
          const paths = parsed.error.issues
            .slice(0, 3)
            .map((i) => i.path.map(String).join('.') || '(root)');
          fail(`the error of ${where} is not a valid AgentError (${paths.join(', ')})`);
        }
        if (parsed.data.retryable !== isRetryableCode(parsed.data.code)) {
          fail(
            `the error of ${where} has retryable ${String(parsed.data.retryable)} for code ${parsed.data.code}`,
          );
        }
      }
    },
  },
];
