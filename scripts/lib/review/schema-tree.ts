/**
 * The JSON Schema tree of any pinned release, for the review and the report refresh. Only the
 * baseline's tree is checked in; any other release's is regenerated on demand from the release
 * cache (installing the release there when missing, as the review does) into
 * `<cache>/<version>/schema/json`, and used only when its digest is the one pinned in the
 * release's manifest, so the tree a report was written from is exactly the one it is read from.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { installRelease, releaseCachePrefix } from '../release-binary.js';
import { digestOf, digestTree } from '../schema-digest.js';
import { generateSchema, readManifest } from './pin.js';

export interface SchemaTreeOptions {
  readonly schemasRoot: string;
  readonly log: (line: string) => void;
  /** The release's binary, installed on demand (a test passes a stand-in). */
  readonly install?: (version: string, log: (line: string) => void) => string;
}

const digestOfTree = (dir: string): string => digestOf(digestTree(dir).files);

/** Where a regenerated tree of `version` is kept. */
export const cachedSchemaDir = (version: string): string =>
  join(releaseCachePrefix(version), 'schema', 'json');

/**
 * Keeps an already generated json/ tree of `version` in the cache (the review generates one
 * while pinning); a tree whose digest is not the pinned one is not kept.
 */
export function cacheSchemaTree(version: string, generatedJson: string, jsonDigest: string): void {
  const target = cachedSchemaDir(version);
  if (existsSync(target) || digestOfTree(generatedJson) !== jsonDigest) return;
  mkdirSync(join(target, '..'), { recursive: true });
  cpSync(generatedJson, target, { recursive: true });
}

/** The json/ folder of `version`'s pinned schema: checked in, cached, or regenerated now. */
export function schemaTreeOf(version: string, options: SchemaTreeOptions): string {
  const manifest = readManifest(options.schemasRoot, version);
  if (manifest === undefined) {
    throw new Error(`no pinned schema for ${version}; run \`npm run protocol:pin -- ${version}\``);
  }
  const checkedIn = join(options.schemasRoot, version, 'json');
  if (existsSync(checkedIn)) return checkedIn;
  const cached = cachedSchemaDir(version);
  if (existsSync(cached)) {
    if (digestOfTree(cached) === manifest.jsonDigest) return cached;
    rmSync(cached, { recursive: true, force: true });
  }
  const binary = (options.install ?? installRelease)(version, options.log);
  options.log(`regenerating the schema tree of ${version} into ${cached}`);
  const parent = join(cached, '..');
  mkdirSync(parent, { recursive: true });
  const work = mkdtempSync(join(parent, 'generating-'));
  try {
    generateSchema(binary, work, true);
    const digest = digestOfTree(join(work, 'json'));
    if (digest !== manifest.jsonDigest) {
      throw new Error(
        `the regenerated schema of ${version} (${digest.slice(0, 12)}) is not the pinned one ` +
          `(${manifest.jsonDigest.slice(0, 12)}); re-pin it with \`npm run protocol:pin -- ${version}\``,
      );
    }
    renameSync(join(work, 'json'), cached);
    return cached;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
