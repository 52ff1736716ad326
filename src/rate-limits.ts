/**
 * codex's account-wide rate limits: read on a connection of its own (`account/rateLimits/read`,
 * src/probe.ts), and heard on a live session (`account/rateLimits/updated`, sent during turns).
 * Both are reduced to one published shape: the windows' percentages and times, a few tokens;
 * never the account id, the upsell banner, credit balances or limit names. codex answers the
 * read only for a ChatGPT login; anything else is the typed `unavailable` outcome, not an error.
 */
import { z } from 'zod';
import type { InboundOf } from './protocol/inbound.js';
import { CODEX_CLIENT_METHOD } from './protocol/wire-names.js';
import { rateLimitsCarrierSchema, rateLimitSnapshotSchema } from './protocol/wire.js';
import { askCodex, type CodexProbe } from './probe.js';
import { wireRefusalOf } from './rpc/errors.js';
import { callSafely } from './shared/call-safely.js';
import { codexRejection } from './shared/codex-error.js';

const token = z.string().regex(/^[a-z][a-z0-9_]{0,39}$/);
const seconds = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

export const codexRateLimitWindowSchema = z.strictObject({
  /** How much of the window is used, in percent (codex rounds it; may pass 100). */
  usedPercent: z.number().min(0).max(1000),
  /** The window's length in minutes (300: five hours; 10080: a week), when codex says. */
  windowMinutes: z.number().int().positive().max(1_000_000).optional(),
  /** When the window resets, in Unix seconds, when codex says. */
  resetsAt: seconds.optional(),
});
export type CodexRateLimitWindow = z.infer<typeof codexRateLimitWindowSchema>;

export const codexRateLimitsSchema = z.strictObject({
  /** The metered bucket (`codex`). */
  limitId: z
    .string()
    .regex(/^[a-z][a-z0-9_-]{0,39}$/)
    .optional(),
  primary: codexRateLimitWindowSchema.optional(),
  secondary: codexRateLimitWindowSchema.optional(),
  /** Which limit was reached (`rate_limit_reached`, `workspace_owner_credits_depleted`, …). */
  limitReached: token.optional(),
  planType: token.optional(),
  /** Whether the account has credits (the balance itself is never copied). */
  credits: z.strictObject({ hasCredits: z.boolean(), unlimited: z.boolean() }).optional(),
});
export type CodexRateLimits = z.infer<typeof codexRateLimitsSchema>;

/** Why codex gave no limits: it reads them only for a ChatGPT login. */
export const RATE_LIMITS_UNAVAILABLE_REASONS = ['not_chatgpt_login'] as const;

export const codexRateLimitsReadSchema = z.discriminatedUnion('available', [
  z.strictObject({ available: z.literal(true), limits: codexRateLimitsSchema }),
  z.strictObject({
    available: z.literal(false),
    reason: z.enum(RATE_LIMITS_UNAVAILABLE_REASONS),
  }),
]);
export type CodexRateLimitsRead = z.infer<typeof codexRateLimitsReadSchema>;

export interface ReadRateLimitsInit {
  /** The app-server's working directory (its project config applies); default: `process.cwd()`. */
  readonly cwd?: string;
}

/** A host callback for the limits a live session hears (provider option `onRateLimits`). */
export type CodexRateLimitsListener = (limits: CodexRateLimits) => void;

/** Keeps a member only when it fits its published schema. */
function fit<T>(schema: z.ZodType<T>, value: unknown): T | undefined {
  const parsed = schema.safeParse(value ?? undefined);
  return parsed.success ? parsed.data : undefined;
}

function windowOf(value: unknown): CodexRateLimitWindow | undefined {
  const w = value as { usedPercent?: unknown; windowDurationMins?: unknown; resetsAt?: unknown };
  if (value === null || value === undefined) return undefined;
  return fit(codexRateLimitWindowSchema, {
    usedPercent: w.usedPercent,
    ...(typeof w.windowDurationMins === 'number' ? { windowMinutes: w.windowDurationMins } : {}),
    ...(typeof w.resetsAt === 'number' ? { resetsAt: w.resetsAt } : {}),
  });
}

/** A wire snapshot → the published limits; a member that does not fit is left out. */
export function rateLimitsOf(snapshot: unknown): CodexRateLimits | undefined {
  const wire = rateLimitSnapshotSchema.safeParse(snapshot);
  if (!wire.success) return undefined;
  const s = wire.data;
  const entries = {
    limitId: fit(codexRateLimitsSchema.shape.limitId, s.limitId),
    primary: windowOf(s.primary),
    secondary: windowOf(s.secondary),
    limitReached: fit(token, s.rateLimitReachedType),
    planType: fit(token, s.planType),
    credits:
      s.credits === null || s.credits === undefined
        ? undefined
        : { hasCredits: s.credits.hasCredits, unlimited: s.credits.unlimited },
  };
  return Object.fromEntries(Object.entries(entries).filter(([, v]) => v !== undefined));
}

/** True when the snapshot says something beyond which bucket it is (codex sends empty ones). */
export function carriesLimits(limits: CodexRateLimits): boolean {
  return Object.keys(limits).some((key) => key !== 'limitId');
}

/** initialize → `account/rateLimits/read` → close. */
export function readCodexRateLimits(probe: CodexProbe): Promise<CodexRateLimitsRead> {
  return askCodex(probe, 'readRateLimits', async (connection): Promise<CodexRateLimitsRead> => {
    let answer: unknown;
    try {
      answer = await connection.request(CODEX_CLIENT_METHOD.accountRateLimitsRead, null);
    } catch (error) {
      if (wireRefusalOf(error) !== 'rate_limits_need_chatgpt_login') throw error;
      return { available: false, reason: 'not_chatgpt_login' };
    }
    const carrier = rateLimitsCarrierSchema.safeParse(answer);
    const limits = carrier.success ? rateLimitsOf(carrier.data.rateLimits) : undefined;
    if (limits === undefined) {
      throw codexRejection(
        'provider_contract_violation',
        'codex answered account/rateLimits/read unusably',
        { providerCode: 'handshake_invalid' },
      );
    }
    return { available: true, limits };
  });
}

/**
 * What a session does with a decoded `account/rateLimits/updated` when the host set
 * `onRateLimits`: an update that carries limits reaches the host (a throw of the host's is
 * swallowed); codex's empty per-turn snapshots are ignored.
 */
export function rateLimitsObserver(
  listener: CodexRateLimitsListener,
): (update: InboundOf<'account/rateLimits/updated'>) => void {
  return (update) => {
    const limits = rateLimitsOf(update.rateLimits);
    if (limits === undefined || !carriesLimits(limits)) return;
    callSafely(() => {
      listener(limits);
    });
  };
}
