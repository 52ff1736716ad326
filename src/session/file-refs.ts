/**
 * `file_ref` input parts → what the model actually sees (ADR-0017). Measured: codex `mention`
 * inputs are dropped before the model request, `localImage` reaches it. So every reference
 * becomes text naming the workspace-relative path, and an image file is also attached as a
 * `localImage`. Each path is resolved inside the workspace root first (symlinks included) and
 * refused if it escapes or does not exist — before anything is sent. No path is ever echoed.
 */
import { realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { TurnInput } from '@relvo-labs/agent-provider';
import type { ProviderCode } from '../protocol/vocabulary.js';

export type NativeUserInput =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'localImage'; readonly path: string };

export const IMAGE_EXTENSIONS = ['.png', '.jpg', '.jpeg', '.gif', '.webp'] as const;

export type NativeInputResult =
  | { readonly ok: true; readonly input: NativeUserInput[] }
  | { readonly ok: false; readonly providerCode: ProviderCode; readonly message: string };

/** How a reference reads in the prompt: the workspace-relative path, nothing else. */
export function referenceText(relativePath: string): string {
  return `[referenced file: ${relativePath}]`;
}

/** The real path of `path` inside `root`, or undefined when it escapes or cannot be resolved. */
export function resolveInsideWorkspace(
  root: string,
  path: string,
): { readonly real: string; readonly relative: string } | 'outside' | 'unresolvable' {
  if (path.length === 0 || isAbsolute(path) || /^[A-Za-z]:/.test(path)) return 'outside';
  if (path.split(/[\\/]/).includes('..')) return 'outside';
  const lexical = resolve(root, path);
  const lexicalRel = relative(root, lexical);
  if (lexicalRel.startsWith('..') || isAbsolute(lexicalRel)) return 'outside';
  let real: string;
  try {
    real = realpathSync(lexical);
  } catch {
    return 'unresolvable';
  }
  const realRoot = realpathSync(root);
  if (real !== realRoot && !real.startsWith(realRoot.endsWith(sep) ? realRoot : realRoot + sep))
    return 'outside';
  return { real, relative: relative(realRoot, real) || '.' };
}

/**
 * The native `turn/start` input for one run: text parts and references, in order, as one text
 * item (separated by blank lines), followed by one `localImage` per referenced image.
 */
export function nativeInputOf(input: TurnInput, root: string): NativeInputResult {
  const texts: string[] = [];
  const images: NativeUserInput[] = [];
  for (const part of input.parts) {
    if (part.type === 'text') {
      texts.push(part.text);
      continue;
    }
    const resolved = resolveInsideWorkspace(root, part.path);
    if (resolved === 'outside')
      return {
        ok: false,
        providerCode: 'file_ref_outside_workspace',
        message: 'a file reference resolves outside the workspace',
      };
    if (resolved === 'unresolvable')
      return {
        ok: false,
        providerCode: 'file_ref_unresolvable',
        message: 'a file reference does not name an existing file in the workspace',
      };
    texts.push(referenceText(resolved.relative));
    const lower = resolved.real.toLowerCase();
    if (IMAGE_EXTENSIONS.some((ext) => lower.endsWith(ext)))
      images.push({ type: 'localImage', path: resolved.real });
  }
  return { ok: true, input: [{ type: 'text', text: texts.join('\n\n') }, ...images] };
}
