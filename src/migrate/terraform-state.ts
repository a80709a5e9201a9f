/**
 * Reads Terraform state: a state file (`.tfstate`, format version 4: `resources[].instances[]`
 * with `attributes`) or the output of `terraform show -json` (`values.root_module.resources[]` with
 * `values`, and `child_modules` recursively). Both become one flat list of managed resources with
 * their address and attributes; data sources are left out. Nothing here knows about zones or WAFs.
 */
import { ZonewallError } from '../errors.js';
import { duplicateKeyMessage, firstDuplicateKey, jsonErrorPlace } from '../json-text.js';

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

/**
 * Refuses a part of the state's structure of the wrong shape (`resources` not a list, a resource
 * without a string `type`, `instances` or `attributes` of another type): read leniently, the state
 * converted to nothing and the run said so as if the state had no such resources.
 */
function shapeError(file: string, where: string, what: string, value: unknown): ZonewallError {
  const got = value === null ? 'null' : Array.isArray(value) ? 'a list' : typeof value === 'object' ? 'an object' : `a ${typeof value}`;
  const wrong = value === undefined ? `is missing (it must be ${what})` : `must be ${what}, not ${got}`;
  return new ZonewallError('ERR_USAGE', `${file}: ${where} ${wrong}: this is not Terraform state as Terraform writes it; pass the .tfstate file or the output of \`terraform show -json\` unchanged`);
}

/** `value` when it is a list (absent or null: empty), else the shape error of `where`. */
function listAt(value: unknown, file: string, where: string): unknown[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw shapeError(file, where, 'a list', value);
  return value;
}

/** Resources of a `.tfstate` (format version 4). */
function fromTfstate(json: Record<string, unknown>, file: string): TfResource[] {
  if (json.version !== 4) {
    throw new ZonewallError('ERR_USAGE', `${file}: Terraform state format version ${String(json.version)} is not supported; zonewall reads version 4 (Terraform 0.12 and later): run \`terraform show -json > state.json\` and pass that file`);
  }
  const out: TfResource[] = [];
  listAt(json.resources, file, 'resources').forEach((item, n) => {
    const r = record(item);
    if (r === undefined) throw shapeError(file, `resources[${n}]`, 'an object', item);
    if (r.mode !== 'managed') return;
    if (typeof r.type !== 'string' || typeof r.name !== 'string') throw shapeError(file, `resources[${n}].${typeof r.type !== 'string' ? 'type' : 'name'}`, 'a string', typeof r.type !== 'string' ? r.type : r.name);
    const type = r.type;
    const name = r.name;
    const prefix = typeof r.module === 'string' && r.module !== '' ? `${r.module}.` : '';
    listAt(r.instances, file, `resources[${n}] (${prefix}${type}.${name}).instances`).forEach((inst, k) => {
      const i = record(inst);
      const where = `resources[${n}] (${prefix}${type}.${name}).instances[${k}]`;
      if (i === undefined) throw shapeError(file, where, 'an object', inst);
      const attributes = record(i.attributes);
      if (attributes === undefined) throw shapeError(file, `${where}.attributes`, 'an object', i.attributes);
      out.push({ address: `${prefix}${type}.${name}${indexSuffix(i.index_key)}`, type, name, ...keyOf(i.index_key), attributes });
    });
  });
  return out;
}

/** Resources of one module of `terraform show -json` (at `where`), then of its child modules. */
function fromModule(module: Record<string, unknown> | undefined, out: TfResource[], file: string, where: string): void {
  if (module === undefined) return;
  listAt(module.resources, file, `${where}.resources`).forEach((item, n) => {
    const r = record(item);
    const at = `${where}.resources[${n}]`;
    if (r === undefined) throw shapeError(file, at, 'an object', item);
    if (r.mode !== 'managed') return;
    if (typeof r.type !== 'string' || typeof r.name !== 'string') throw shapeError(file, `${at}.${typeof r.type !== 'string' ? 'type' : 'name'}`, 'a string', typeof r.type !== 'string' ? r.type : r.name);
    const type = r.type;
    const name = r.name;
    const address = typeof r.address === 'string' ? r.address : `${type}.${name}${indexSuffix(r.index)}`;
    const values = r.values === undefined || r.values === null ? {} : record(r.values);
    if (values === undefined) throw shapeError(file, `${at} (${address}).values`, 'an object', r.values);
    out.push({ address, type, name, ...keyOf(r.index), attributes: values });
  });
  listAt(module.child_modules, file, `${where}.child_modules`).forEach((child, n) => {
    const m = record(child);
    if (m === undefined) throw shapeError(file, `${where}.child_modules[${n}]`, 'an object', child);
    fromModule(m, out, file, `${where}.child_modules[${n}]`);
  });
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
    // The parser's message quotes the text, newlines included: say where in one line.
    throw new ZonewallError('ERR_USAGE', `${file}: not JSON${jsonErrorPlace(text, err)}; pass a .tfstate file or the output of \`terraform show -json\``, { cause: err });
  }
  // Terraform writes each key once: a repeat (of which JSON keeps the last, silently) is an edit or damage.
  const duplicate = firstDuplicateKey(text);
  if (duplicate !== undefined) {
    throw new ZonewallError('ERR_USAGE', duplicateKeyMessage(file, text, duplicate, 'Terraform writes each key once, so the state was edited or damaged: use the state Terraform wrote (terraform show -json)'));
  }
  const json = record(parsed);
  if (json === undefined) throw new ZonewallError('ERR_USAGE', `${file}: expected a JSON object holding Terraform state`);
  const terraformVersion = typeof json.terraform_version === 'string' ? json.terraform_version : undefined;
  if ('format_version' in json) {
    const resources: TfResource[] = [];
    fromModule(record(record(json.values)?.root_module), resources, file, 'values.root_module');
    return { format: 'show-json', terraformVersion, resources };
  }
  if ('resources' in json || 'version' in json) {
    return { format: 'tfstate', terraformVersion, resources: fromTfstate(json, file) };
  }
  throw new ZonewallError('ERR_USAGE', `${file}: neither a .tfstate file (no "version"/"resources") nor \`terraform show -json\` output (no "format_version")`);
}
