// Reads and checks the artifacts: JSON, a manifest of schema v10 to v12, a catalog of the same
// project. A file part is streamed (read-json-sections.ts): only the sections and fields the import
// reads are kept, so neither its whole text nor its whole tree is ever in memory. A JSON body arrives
// parsed already (so it is bounded by SEXTANT_UPLOAD_LIMIT) and is cut down by the same rules.
import type { DbtCatalog, DbtManifest } from './artifacts.ts';
import { ArtifactInvalid } from './errors.ts';
import { pickSections, readJsonSections, type SectionRule } from './read-json-sections.ts';
import { MANIFEST_SECTIONS } from './slim-manifest.ts';

/** An artifact as it arrived: a file on disk (multipart upload) or a value already parsed (JSON body). */
export type ArtifactSource = { path: string } | { value: unknown };

export const MANIFEST_VERSIONS = [10, 11, 12];

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Of a catalog entry only what the import reads (its statistics are dropped). */
function slimCatalogNode(node: unknown): unknown {
  return isRecord(node) ? { unique_id: node['unique_id'], metadata: node['metadata'], columns: node['columns'] } : node;
}
const CATALOG_SECTIONS: Record<string, SectionRule> = { metadata: 'whole', nodes: slimCatalogNode, sources: slimCatalogNode };

/** The artifact's value cut down to the sections `rules` names (a value that is no object as it is). */
async function parsed(field: 'manifest' | 'catalog', source: ArtifactSource, rules: Record<string, SectionRule>): Promise<unknown> {
  let value: unknown;
  try {
    if ('path' in source) return await readJsonSections(source.path, rules);
    value = typeof source.value === 'string' ? JSON.parse(source.value) : source.value;
  } catch {
    throw new ArtifactInvalid(field, 'not JSON', 'json_invalid');
  }
  return isRecord(value) ? pickSections(value, rules) : value;
}

/** The schema version of a dbt artifact (`https://schemas.getdbt.com/dbt/<kind>/v12.json` -> 12). */
function schemaVersion(value: unknown, kind: string): number | undefined {
  const meta = isRecord(value) ? value['metadata'] : undefined;
  const url = isRecord(meta) ? meta['dbt_schema_version'] : undefined;
  const m = typeof url === 'string' ? new RegExp(`/${kind}/v(\\d+)\\.json$`).exec(url) : null;
  return m ? Number(m[1]) : undefined;
}

/** The manifest, checked: 422 when it is not JSON, not a manifest, or of a schema version not read. */
export async function readManifest(source: ArtifactSource): Promise<DbtManifest> {
  const value = await parsed('manifest', source, MANIFEST_SECTIONS);
  const version = schemaVersion(value, 'manifest');
  if (version === undefined || !isRecord(value) || !isRecord(value['nodes'])) throw new ArtifactInvalid('manifest', 'not a dbt manifest (no metadata.dbt_schema_version of a manifest, or no nodes)');
  if (!MANIFEST_VERSIONS.includes(version)) throw new ArtifactInvalid('manifest', `unsupported manifest schema version v${version} (v10 to v12 are read)`);
  return value as unknown as DbtManifest;
}

/** The catalog, checked against the manifest: 422 when it is not JSON, not a catalog, or of another project. */
export async function readCatalog(source: ArtifactSource, manifest: DbtManifest): Promise<DbtCatalog> {
  const value = await parsed('catalog', source, CATALOG_SECTIONS);
  if (schemaVersion(value, 'catalog') === undefined || !isRecord(value) || !isRecord(value['nodes'])) throw new ArtifactInvalid('catalog', 'not a dbt catalog (no metadata.dbt_schema_version of a catalog, or no nodes)');
  const catalog = value as unknown as DbtCatalog;
  const ids = [...Object.keys(catalog.nodes), ...Object.keys(catalog.sources ?? {})];
  const known = (id: string) => id in manifest.nodes || id in (manifest.sources ?? {});
  if (ids.length > 0 && !ids.some(known)) {
    const project = ids[0]!.split('.')[1] ?? '?';
    throw new ArtifactInvalid('catalog', `catalog of another project (${project}): none of its relations is in the manifest of ${manifest.metadata.project_name ?? 'this project'}`);
  }
  return catalog;
}
