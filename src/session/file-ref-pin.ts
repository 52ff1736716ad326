/**
 * Pins one `file_ref` to a file the adapter opened itself (ADR-0017, amended). A check by path
 * followed by a read by path (codex's, for a `localImage`) can be raced: the file swapped for a
 * symlink in between. So the reference is opened once, without following a final symlink and
 * without blocking (a FIFO would otherwise hang the open), its type is read from the descriptor,
 * and the kernel's own name for the opened file (`/proc/self/fd/<n>`) must lie inside the
 * workspace. Whatever is sent — the name, an image's bytes — comes from that descriptor.
 */
import {
  closeSync,
  constants,
  fstatSync,
  openSync,
  readlinkSync,
  readSync,
  realpathSync,
} from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';

/** The most image bytes one reference may carry inline (a larger image is refused). */
export const FILE_REF_IMAGE_MAX_BYTES = 10 * 1024 * 1024;

/** Why a reference could not be pinned; each maps to one bounded provider code. */
export type PinFailure =
  'outside' | 'unresolvable' | 'not_regular_file' | 'unpinnable' | 'too_large';

export interface PinnedFile {
  /** The opened file's real path relative to the workspace's real root. */
  readonly relative: string;
  /** The file's bytes, read from the descriptor, when the caller asked for them. */
  readonly bytes?: Buffer;
}

// O_NOFOLLOW: a final symlink swapped in after the realpath check fails the open (ELOOP);
// O_NONBLOCK: opening a FIFO for reading returns at once instead of waiting for a writer.
const OPEN_FLAGS =
  constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY;

function isInside(realRoot: string, real: string): boolean {
  return real === realRoot || real.startsWith(realRoot.endsWith(sep) ? realRoot : realRoot + sep);
}

/** The lexical and real-path checks: no absolute path, no `..`, nothing resolving outside. */
function realPathInside(
  root: string,
  path: string,
): { real: string; realRoot: string } | PinFailure {
  if (path.length === 0 || isAbsolute(path) || /^[A-Za-z]:/.test(path)) return 'outside';
  if (path.split(/[\\/]/).includes('..')) return 'outside';
  const lexical = resolve(root, path);
  const lexicalRel = relative(root, lexical);
  if (lexicalRel.startsWith('..') || isAbsolute(lexicalRel)) return 'outside';
  try {
    const realRoot = realpathSync(root);
    const real = realpathSync(lexical);
    return isInside(realRoot, real) ? { real, realRoot } : 'outside';
  } catch {
    return 'unresolvable';
  }
}

function openFailure(error: unknown): PinFailure {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'ELOOP') return 'unpinnable'; // the checked file became a symlink
  if (code === 'ENXIO') return 'not_regular_file'; // a socket
  return 'unresolvable';
}

function readAll(fd: number, size: number): Buffer | 'too_large' {
  if (size > FILE_REF_IMAGE_MAX_BYTES) return 'too_large';
  // one byte more than allowed, so a file that grew after fstat is caught too
  const buffer = Buffer.alloc(Math.min(size, FILE_REF_IMAGE_MAX_BYTES) + 1);
  let length = 0;
  for (;;) {
    if (length === buffer.length) return 'too_large';
    const n = readSync(fd, buffer, length, buffer.length - length, null);
    if (n === 0) return buffer.subarray(0, length);
    length += n;
  }
}

/**
 * Opens `path` (workspace-relative) and proves the opened file is a regular file inside `root`.
 * With `readBytes` the file's content is read from that same descriptor.
 */
export function pinFileReference(
  root: string,
  path: string,
  readBytes: (real: string) => boolean,
): PinnedFile | PinFailure {
  const checked = realPathInside(root, path);
  if (typeof checked === 'string') return checked;
  let fd: number;
  try {
    fd = openSync(checked.real, OPEN_FLAGS);
  } catch (error) {
    return openFailure(error);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return 'not_regular_file';
    let opened: string;
    try {
      opened = readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      return 'unpinnable'; // no kernel name for the descriptor: nothing proves where it is
    }
    // a file unlinked since the open reads "<path> (deleted)"; a relative name is no path
    if (!isAbsolute(opened) || opened.endsWith(' (deleted)')) return 'unpinnable';
    if (!isInside(checked.realRoot, opened)) return 'outside';
    const relativePath = relative(checked.realRoot, opened) || '.';
    if (!readBytes(opened)) return { relative: relativePath };
    const bytes = readAll(fd, stat.size);
    return bytes === 'too_large' ? bytes : { relative: relativePath, bytes };
  } finally {
    closeSync(fd);
  }
}
