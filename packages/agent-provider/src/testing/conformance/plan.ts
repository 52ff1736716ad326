import type { ProviderDescriptor } from '../../schemas/descriptor.js';
import type { CheckContext } from './context.js';
import type { ConformanceArea, ConformanceExercise, ConformanceHarness } from './types.js';

export type AskScenario = 'approval' | 'question';

/** What a check may use, given the descriptor and what the harness can drive. */
export interface ConformancePlan {
  readonly descriptor: ProviderDescriptor;
  readonly harness: ConformanceHarness;
  /** Interaction scenarios the descriptor declares and the harness can drive. */
  readonly askScenarios: readonly AskScenario[];
  can(exercise: ConformanceExercise): boolean;
  /** The harness's stated reason for not driving `exercise`. */
  reason(exercise: ConformanceExercise): string | undefined;
  readonly interruptSupported: boolean;
}

export type Applicability =
  { readonly applies: true } | { readonly applies: false; readonly reason: string };

export const APPLIES: Applicability = { applies: true };

export interface CheckDefinition {
  readonly id: string;
  readonly area: ConformanceArea;
  readonly title: string;
  applies(plan: ConformancePlan): Applicability;
  run(ctx: CheckContext, plan: ConformancePlan): Promise<void>;
}

export function createPlan(
  descriptor: ProviderDescriptor,
  harness: ConformanceHarness,
): ConformancePlan {
  const reasons = harness.cannotExercise ?? {};
  const reason = (exercise: ConformanceExercise): string | undefined => {
    const stated = reasons[exercise];
    // A blank reason is not a reason: the exercise then counts as drivable.
    return typeof stated === 'string' && stated.trim().length > 0 ? stated : undefined;
  };
  const can = (exercise: ConformanceExercise): boolean => reason(exercise) === undefined;
  const declared: AskScenario[] = [];
  if (descriptor.interaction.approval.supported) declared.push('approval');
  if (descriptor.interaction.question.supported) declared.push('question');
  return {
    descriptor,
    harness,
    askScenarios: declared.filter((s) => can(s)),
    can,
    reason,
    interruptSupported: descriptor.run.interrupt.mode !== 'unsupported',
  };
}

/** Applies when the harness can drive every listed exercise; otherwise skipped with its reason. */
export function needs(plan: ConformancePlan, ...exercises: ConformanceExercise[]): Applicability {
  for (const exercise of exercises) {
    const stated = plan.reason(exercise);
    if (stated !== undefined)
      return { applies: false, reason: `harness cannot exercise ${exercise}: ${stated}` };
  }
  return APPLIES;
}

/** Applies when at least one interaction kind is declared and drivable. */
export function needsAsk(plan: ConformancePlan): Applicability {
  const d = plan.descriptor.interaction;
  if (!d.approval.supported && !d.question.supported) {
    return {
      applies: false,
      reason: 'not applicable: the descriptor declares neither approvals nor questions',
    };
  }
  if (plan.askScenarios.length === 0) {
    const stated = [plan.reason('approval'), plan.reason('question')].filter(
      (r) => r !== undefined,
    );
    return { applies: false, reason: `harness cannot exercise interactions: ${stated.join('; ')}` };
  }
  return APPLIES;
}
