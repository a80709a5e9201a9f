/**
 * `npm run gen`: generates `src/manifest/generated/manifest-types.ts` from
 * `schemas/zone-manifest.schema.json` with json-schema-to-typescript. The schema is the authority on
 * the manifest format; the generated types are committed, and `test/manifest/generated-types.test.ts`
 * fails when they are stale, so a schema change without `npm run gen` cannot land.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { compile, type JSONSchema } from 'json-schema-to-typescript';

/** The schema file the types are generated from. */
export const schemaPath = fileURLToPath(new URL('../schemas/zone-manifest.schema.json', import.meta.url));
/** The generated, committed TypeScript file. */
export const typesPath = fileURLToPath(new URL('../src/manifest/generated/manifest-types.ts', import.meta.url));

const banner = `/**
 * Types of a zone manifest, generated from schemas/zone-manifest.schema.json by \`npm run gen\`
 * (scripts/gen-types.ts, json-schema-to-typescript). Do not edit: change the schema and regenerate.
 * test/manifest/generated-types.test.ts fails when this file is stale.
 */`;

/** Returns the TypeScript source generated from the current schema. */
export async function generateManifestTypes(): Promise<string> {
  const schema = JSON.parse(readFileSync(schemaPath, 'utf8')) as JSONSchema;
  assertTsTypesMatchEnums(schema);
  return compile(schema, 'ZoneManifest', {
    bannerComment: banner,
    // The schema closes every object; no index signatures beyond the keyed maps it declares.
    additionalProperties: false,
    // Object $defs are all reachable, and become named exports (`FirewallRule`, ...); scalar $defs carry
    // `tsType` so that properties with their own description do not spawn numbered aliases (Key1, Key2).
    unreachableDefinitions: false,
    // `if/then/else` are validation-only (bypass needs products, OWASP-only fields): no type effect.
    strictIndexSignatures: false,
    format: true,
    style: { singleQuote: true, printWidth: 110 },
  });
}

/**
 * A `tsType` written by hand could drift from its `enum`; refuse to generate when it does, naming the
 * definition (ajv validates with the enum, so a drifted tsType would lie to TypeScript code).
 */
function assertTsTypesMatchEnums(schema: JSONSchema): void {
  for (const [name, def] of Object.entries(schema.$defs ?? {})) {
    const d = def as JSONSchema;
    if (typeof d.tsType !== 'string' || !Array.isArray(d.enum)) continue;
    const fromEnum = d.enum.map((v) => `'${String(v)}'`).join(' | ');
    if (d.tsType !== fromEnum) {
      throw new Error(`$defs.${name}: tsType ${d.tsType} does not match its enum (${fromEnum})`);
    }
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const source = await generateManifestTypes();
  writeFileSync(typesPath, source);
  console.log(`wrote ${typesPath}`);
}
