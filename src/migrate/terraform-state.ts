/**
 * Reads Terraform state: a state file (`.tfstate`, format version 4: `resources[].instances[]`
 * with `attributes`) or the output of `terraform show -json` (`values.root_module.resources[]` with
 * `values`, and `child_modules` recursively). Both become one flat list of managed resources with
 * their address and attributes; data sources are left out. Nothing here knows about zones or WAFs.
 */
import { ZonewallError } from '../errors.js';

/** One managed resource instance of the state. */
export interface TfResource {
  /** The address Terraform prints and `terraform state rm` takes, e.g. `module.waf.svc_filter.api["a"]`. */
  address: string;
  type: string;
  name: string;
  /** The instance key: a `for_each` key (string) or a `count` index (number); absent for a single instance. */
  indexKey?: string | number;
  attributes: Record<string, unknown>;
}

/** Which of the two formats the input was. */
export type TfStateFormat = 'tfstate' | 'show-json';

/** A parsed state. */
export interface TfState {
  format: TfStateFormat;
  terraformVersion?: string;
  resources: TfResource[];
}

/** A plain JSON object, or undefined. */
function record(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? value as Record<string, unknown> : undefined;
}

/** An instance key as the state holds it (`index_key` of a `.tfstate`, `index` of show -json). */
function keyOf(key: unknown): { indexKey?: string | number } {
  return typeof key === 'number' || typeof key === 'string' ? { indexKey: key } : {};
}

/** The `[key]` suffix of an instance address. */
function indexSuffix(key: unknown): string {
  if (key === undefined || key === null) return '';
  return typeof key === 'number' ? `[${key}]` : `[${JSON.stringify(String(key))}]`;
}

/** Resources of a `.tfstate` (format version 4). */
function fromTfstate(json: Record<string, unknown>, file: string): TfResource[] {
  if (json.version !== 4) {
    throw new ZonewallError('ERR_USAGE', `${file}: Terraform state format version ${String(json.version)} is not supported; zonewall reads version 4 (Terraform 0.12 and later): run \`terraform show -json > state.json\` and pass that file`);
  }
  const out: TfResource[] = [];
  for (const item of Array.isArray(json.resources) ? json.resources : []) {
    const r = record(item);
    if (r === undefined || r.mode !== 'managed') continue;
    const type = String(r.type);
    const name = String(r.name);
    const prefix = typeof r.module === 'string' && r.module !== '' ? `${r.module}.` : '';
    for (const inst of Array.isArray(r.instances) ? r.instances : []) {
      const i = record(inst);
      const attributes = record(i?.attributes);
      if (i === undefined || attributes === undefined) continue;
      out.push({ address: `${prefix}${type}.${name}${indexSuffix(i.index_key)}`, type, name, ...keyOf(i.index_key), attributes });
    }
  }
  return out;
}

/** Resources of one module of `terraform show -json`, then of its child modules. */
function fromModule(module: Record<string, unknown> | undefined, out: TfResource[]): void {
  if (module === undefined) return;
  for (const item of Array.isArray(module.resources) ? module.resources : []) {
    const r = record(item);
    if (r === undefined || r.mode !== 'managed') continue;
    const type = String(r.type);
    const name = String(r.name);
    const address = typeof r.address === 'string' ? r.address : `${type}.${name}${indexSuffix(r.index)}`;
    out.push({ address, type, name, ...keyOf(r.index), attributes: record(r.values) ?? {} });
  }
  for (const child of Array.isArray(module.child_modules) ? module.child_modules : []) fromModule(record(child), out);
}

/**
 * Parses Terraform state JSON of either format.
 *
 * @example parseTerraformState(fs.readFileSync('terraform.tfstate', 'utf8'), 'terraform.tfstate').resources
 */
export function parseTerraformState(text: string, file: string): TfState {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new ZonewallError('ERR_USAGE', `${file}: not JSON (${(err as Error).message}); pass a .tfstate file or the output of \`terraform show -json\``, { cause: err });
  }
  const json = record(parsed);
  if (json === undefined) throw new ZonewallError('ERR_USAGE', `${file}: expected a JSON object holding Terraform state`);
  const terraformVersion = typeof json.terraform_version === 'string' ? json.terraform_version : undefined;
  if ('format_version' in json) {
    const resources: TfResource[] = [];
    fromModule(record(record(json.values)?.root_module), resources);
    return { format: 'show-json', terraformVersion, resources };
  }
  if ('resources' in json || 'version' in json) {
    return { format: 'tfstate', terraformVersion, resources: fromTfstate(json, file) };
  }
  throw new ZonewallError('ERR_USAGE', `${file}: neither a .tfstate file (no "version"/"resources") nor \`terraform show -json\` output (no "format_version")`);
}
