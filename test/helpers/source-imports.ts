/**
 * How the architecture tests read a source file's imports: with the TypeScript API, every static
 * import, re-export, dynamic `import()` and `import('x').T` type, each marked type-only or not. Used
 * by `architecture.test.ts` (the import direction) and `architecture-cycles.test.ts` (no cycles).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

/** One import of a source file: its specifier, whether it names only types, and its line. */
export interface Import {
  file: string;
  specifier: string;
  typeOnly: boolean;
  line: number;
}

/** Every `.ts` file below `dir` (declaration files left out). */
export function listFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return listFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Every import of `file`: static, re-export, dynamic `import()` and `import('x').T` types. */
export function importsOf(file: string): Import[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const out: Import[] = [];
  const add = (node: ts.Node, spec: ts.Expression | undefined, typeOnly: boolean) => {
    if (spec === undefined || !ts.isStringLiteral(spec)) return;
    out.push({ file, specifier: spec.text, typeOnly, line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1 });
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      const allTypes = clause !== undefined && (clause.isTypeOnly || (clause.name === undefined && clause.namedBindings !== undefined
        && ts.isNamedImports(clause.namedBindings) && clause.namedBindings.elements.length > 0 && clause.namedBindings.elements.every((e) => e.isTypeOnly)));
      add(node, node.moduleSpecifier, allTypes);
    } else if (ts.isExportDeclaration(node)) {
      add(node, node.moduleSpecifier, node.isTypeOnly);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      add(node, node.arguments[0], false);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      add(node, node.argument.literal, true);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}
