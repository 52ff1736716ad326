/**
 * The key paths of a failed zod parse, bounded for an error's `details`: at most 16 paths of at
 * most 200 characters, never the offending values.
 */
import type { z } from 'zod';

const MAX_PATHS = 16;
const MAX_PATH_LENGTH = 200;

export function issuePaths(error: z.ZodError, root: string): string[] {
  const paths = new Set<string>();
  for (const issue of error.issues) {
    const path = issue.path.map((segment) => String(segment)).join('.');
    // an unknown key is named (the host wrote it), not its parent object
    const keys = issue.code === 'unrecognized_keys' ? issue.keys : [undefined];
    for (const key of keys) {
      const full = key === undefined ? path : path === '' ? key : `${path}.${key}`;
      paths.add((full === '' ? root : full).slice(0, MAX_PATH_LENGTH));
    }
    if (paths.size >= MAX_PATHS) break;
  }
  return [...paths].slice(0, MAX_PATHS);
}
