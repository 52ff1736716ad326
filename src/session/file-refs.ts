/**
 * `file_ref` input parts → what the model actually sees (ADR-0017). Measured: codex `mention`
 * inputs are dropped before the model request, images reach it. So every reference becomes text
 * naming the workspace-relative path, and an image file is also attached — as the bytes the
 * adapter read from the descriptor it checked (an inline `data:` URL), never as a path codex
 * would open later. Each reference is pinned inside the workspace and refused, before anything
 * is sent, if it escapes, does not exist, is not a regular file or cannot be pinned. No path is
 * ever echoed.
 */
import type { TurnInput } from '@relvo-labs/agent-provider';
import type { ProviderCode } from '../protocol/provider-codes.js';
import { pinFileReference, type PinFailure } from './file-ref-pin.js';

export type NativeUserInput =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'image'; readonly url: string };

/** The image types attached inline, by extension, with the media type of their data URL. */
const IMAGE_MEDIA_TYPES: Readonly<Record<string, string>> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
};

export type NativeInputResult =
  | { readonly ok: true; readonly input: NativeUserInput[] }
  | { readonly ok: false; readonly providerCode: ProviderCode; readonly message: string };

// Controls, format characters (bidi overrides), line/paragraph separators, lone surrogates, spaces other than
// U+0020, unassigned and private-use code points, and the characters of the reference syntax.
const UNSAFE_NAME_CHAR = /[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Cs}\p{Z}"\\[\]]/u;

const isUnsafe = (char: string): boolean => char !== ' ' && UNSAFE_NAME_CHAR.test(char);

function escapeNameChar(char: string): string {
  if (!isUnsafe(char)) return char;
  if (char === '"' || char === '\\') return `\\${char}`;
  return `\\u{${(char.codePointAt(0) ?? 0).toString(16)}}`;
}

/**
 * How a reference reads in the prompt. A plain name is written as is; a name holding anything
 * that could start a new line, reorder what a reader sees or close the bracket is written
 * quoted, with those characters as `\u{…}` escapes, so a file name can never add prompt lines.
 */
export function referenceText(relativePath: string): string {
  const chars = Array.from(relativePath); // code points: a surrogate pair is one character
  if (!chars.some(isUnsafe)) return `[referenced file: ${relativePath}]`;
  return `[referenced file: "${chars.map(escapeNameChar).join('')}"]`;
}

function mediaTypeOf(path: string): string | undefined {
  const lower = path.toLowerCase();
  const dot = lower.lastIndexOf('.');
  return dot < 0 ? undefined : IMAGE_MEDIA_TYPES[lower.slice(dot)];
}

const REFUSALS: Readonly<Record<PinFailure, { providerCode: ProviderCode; message: string }>> = {
  outside: {
    providerCode: 'file_ref_outside_workspace',
    message: 'a file reference resolves outside the workspace',
  },
  unresolvable: {
    providerCode: 'file_ref_unresolvable',
    message: 'a file reference does not name an existing file in the workspace',
  },
  not_regular_file: {
    providerCode: 'file_ref_not_regular_file',
    message: 'a file reference names a directory or another non-regular file',
  },
  unpinnable: {
    providerCode: 'file_ref_unpinnable',
    message: 'a file reference changed while it was checked, or cannot be pinned',
  },
  too_large: {
    providerCode: 'file_ref_too_large',
    message: 'a referenced image is larger than can be attached',
  },
};

/**
 * The native `turn/start` input for one run: text parts and references, in order, as one text
 * item (separated by blank lines), followed by one inline image per referenced image.
 */
export function nativeInputOf(input: TurnInput, root: string): NativeInputResult {
  const texts: string[] = [];
  const images: NativeUserInput[] = [];
  for (const part of input.parts) {
    if (part.type === 'text') {
      texts.push(part.text);
      continue;
    }
    const pinned = pinFileReference(root, part.path, (real) => mediaTypeOf(real) !== undefined);
    if (typeof pinned === 'string') return { ok: false, ...REFUSALS[pinned] };
    texts.push(referenceText(pinned.relative));
    const mediaType = mediaTypeOf(pinned.relative);
    if (pinned.bytes !== undefined && mediaType !== undefined)
      images.push({
        type: 'image',
        url: `data:${mediaType};base64,${pinned.bytes.toString('base64')}`,
      });
  }
  return { ok: true, input: [{ type: 'text', text: texts.join('\n\n') }, ...images] };
}
