/**
 * The models codex offers (`model/list`), asked on a connection of its own (src/probe.ts): codex
 * answers from its bundled catalog, no login and no model request needed (measured on 0.171.0).
 * Pages are followed up to a cap; each entry is reduced to a published shape (id, slug, display
 * name, flags, efforts) — descriptions, upgrade notes and unknown members are never copied.
 */
import { z } from 'zod';
import { CODEX_CLIENT_METHOD } from './protocol/wire-names.js';
import { modelEntrySchema, modelListResultSchema } from './protocol/wire.js';
import { askCodex, type CodexProbe } from './probe.js';
import type { SessionConnection } from './rpc/connection.js';
import { codexRejection } from './shared/codex-error.js';

/** At most this many `model/list` requests per call (the baseline answers in one). */
export const MAX_MODEL_PAGES = 20;
/** At most this many models are kept; anything beyond marks the list `truncated`. */
export const MAX_MODELS = 500;

const slug = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._:/-]{0,199}$/);
const effortToken = z.string().regex(/^[a-z][a-z0-9_-]{0,39}$/);

export const codexModelSchema = z.strictObject({
  /** What `model` (a profile, a session option) takes. */
  id: slug,
  /** The model slug codex sends upstream (the same as `id` in every measured catalog). */
  model: slug,
  /** codex's name for it, for a picker: catalog text, bounded; neutralise it before a terminal. */
  displayName: z.string().min(1).max(200),
  /** codex's default model (one in the catalog). */
  isDefault: z.boolean(),
  /** Hidden from codex's own picker; listed only with `includeHidden`. */
  hidden: z.boolean(),
  defaultEffort: effortToken,
  /** The reasoning efforts the model accepts, in codex's order. */
  efforts: z.array(effortToken).max(16),
});
export type CodexModel = z.infer<typeof codexModelSchema>;

export const codexModelListSchema = z.strictObject({
  models: z.array(codexModelSchema).max(MAX_MODELS),
  /** More pages or models than the caps allow: the list is a prefix of codex's. */
  truncated: z.boolean(),
  /** Entries codex sent that did not fit the published shape (left out, never echoed). */
  skipped: z.number().int().nonnegative(),
});
export type CodexModelList = z.infer<typeof codexModelListSchema>;

export const listModelsInitSchema = z.strictObject({
  /** The app-server's working directory (its project config applies); default: `process.cwd()`. */
  cwd: z.string().min(1).optional(),
  /** Include the models codex hides from its own picker. */
  includeHidden: z.boolean().optional(),
  /** Models per request (codex's default: the whole catalog in one page). */
  pageSize: z.number().int().min(1).max(100).optional(),
});
export type ListModelsInit = z.input<typeof listModelsInitSchema>;

/** One catalog entry → the published model, or undefined when it does not fit. */
export function modelOf(entry: unknown): CodexModel | undefined {
  const wire = modelEntrySchema.safeParse(entry);
  if (!wire.success) return undefined;
  const w = wire.data;
  const model = codexModelSchema.safeParse({
    id: w.id,
    model: w.model,
    displayName: w.displayName,
    isDefault: w.isDefault,
    hidden: w.hidden,
    defaultEffort: w.defaultReasoningEffort,
    efforts: w.supportedReasoningEfforts.map((e) => e.reasoningEffort),
  });
  return model.success ? model.data : undefined;
}

function unusable(): Error {
  return codexRejection('provider_contract_violation', 'codex answered model/list unusably', {
    providerCode: 'handshake_invalid',
  });
}

/** Follows `nextCursor` until codex says there is no more, or a cap is reached. */
export async function collectModels(
  connection: SessionConnection,
  init: Omit<ListModelsInit, 'cwd'>,
): Promise<CodexModelList> {
  const models: CodexModel[] = [];
  let skipped = 0;
  let cursor: string | undefined;
  for (let page = 0; page < MAX_MODEL_PAGES; page += 1) {
    const answer = modelListResultSchema.safeParse(
      await connection.request(CODEX_CLIENT_METHOD.modelList, {
        ...(init.includeHidden === true ? { includeHidden: true } : {}),
        ...(init.pageSize !== undefined ? { limit: init.pageSize } : {}),
        ...(cursor !== undefined ? { cursor } : {}),
      }),
    );
    if (!answer.success) throw unusable();
    for (const entry of answer.data.data) {
      const model = modelOf(entry);
      if (model === undefined) skipped += 1;
      else if (models.length < MAX_MODELS) models.push(model);
      else return { models, truncated: true, skipped };
    }
    const next = answer.data.nextCursor ?? undefined;
    if (next === undefined) return { models, truncated: false, skipped };
    // a cursor that does not move would loop until the cap: stop at once
    if (next === cursor || next.length > 200) throw unusable();
    cursor = next;
  }
  return { models, truncated: true, skipped };
}

/** initialize → `model/list` pages → close. */
export function listCodexModels(
  probe: CodexProbe,
  init: Omit<ListModelsInit, 'cwd'>,
): Promise<CodexModelList> {
  return askCodex(probe, 'listModels', (connection) => collectModels(connection, init));
}
