import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

/**
 * What Stripe's published API description says about the few endpoints we
 * use, read from the installed `stripe` package: its resources and types are
 * generated from Stripe's OpenAPI spec ("File generated from our OpenAPI
 * spec"), so they are that spec as of the SDK we ship, with no copy of the
 * spec to keep in step. The fake (server/payments/fake/) is checked against
 * this so that it cannot drift into an API that does not exist.
 */
const STRIPE_ESM = path.resolve("node_modules/stripe/esm");

/** Every (method, path) the SDK can call, `{id}` for each path parameter. */
export function sdkEndpoints(): Set<string> {
  const endpoints = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (entry.name.endsWith(".js")) {
        const source = readFileSync(file, "utf8");
        for (const match of source.matchAll(
          /_makeRequest\('(GET|POST|DELETE)', [`'](\/v1\/[^`']*)[`']/g,
        )) {
          const template = (match[2] ?? "").replace(/\$\{[^}]*\}/g, "{id}");
          endpoints.add(`${match[1]} ${template}`);
        }
      }
    }
  };
  walk(path.join(STRIPE_ESM, "resources"));
  return endpoints;
}

type Property = { name: string; optional: boolean; type: ts.TypeNode | undefined; scope: string[] };
type Declaration = { properties: Property[]; extendsPagination: boolean; scope: string[] };

/** Interfaces of one generated .d.ts file by qualified name (`Checkout.SessionCreateParams.PaymentIntentData`). */
export class SdkTypes {
  private readonly declarations = new Map<string, Declaration>();

  constructor(files: string[]) {
    // shared.d.ts: RangeQueryParam, PaginationParams and the like, used by every resource.
    for (const file of [...files, "../shared.d.ts"]) {
      const text = readFileSync(path.join(STRIPE_ESM, "resources", file), "utf8");
      const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
      this.collect(source.statements, []);
    }
  }

  private collect(statements: readonly ts.Statement[], scope: string[]) {
    for (const statement of statements) {
      if (ts.isInterfaceDeclaration(statement)) {
        const name = [...scope, statement.name.text];
        const properties: Property[] = [];
        for (const member of statement.members) {
          if (!ts.isPropertySignature(member) || !member.name) continue;
          const key = ts.isIdentifier(member.name)
            ? member.name.text
            : ts.isStringLiteral(member.name)
              ? member.name.text
              : undefined;
          if (key === undefined) continue;
          properties.push({
            name: key,
            optional: member.questionToken !== undefined,
            type: member.type,
            scope: name,
          });
        }
        const extendsPagination =
          statement.heritageClauses?.some((clause) =>
            clause.types.some(
              (t) => ts.isIdentifier(t.expression) && t.expression.text === "PaginationParams",
            ),
          ) ?? false;
        const existing = this.declarations.get(name.join("."));
        this.declarations.set(name.join("."), {
          properties: [...(existing?.properties ?? []), ...properties],
          extendsPagination: extendsPagination || (existing?.extendsPagination ?? false),
          scope,
        });
      } else if (ts.isModuleDeclaration(statement) && statement.body) {
        const body = statement.body;
        if (ts.isModuleBlock(body)) this.collect(body.statements, [...scope, statement.name.text]);
      }
    }
  }

  interfaceNamed(name: string): Declaration {
    const found = this.declarations.get(name);
    if (!found) throw new Error(`no interface ${name} in the stripe package's types`);
    return found;
  }

  /** The fields an object of this type always carries, and whether each may be null. */
  requiredFields(name: string): { name: string; nullable: boolean }[] {
    return this.interfaceNamed(name)
      .properties.filter((p) => !p.optional)
      .map((p) => ({ name: p.name, nullable: p.type ? includesNull(p.type) : false }));
  }

  allFields(name: string): string[] {
    return this.interfaceNamed(name).properties.map((p) => p.name);
  }

  /**
   * Problems with an object the fake answers with, as `name`: a field the
   * API always returns missing, null where it never is, or a field the API
   * does not have; nested objects of this file's types are checked too.
   */
  shapeProblems(name: string, value: Record<string, unknown>, at = ""): string[] {
    const declaration = this.interfaceNamed(name);
    const problems: string[] = [];
    const known = new Map(declaration.properties.map((p) => [p.name, p]));
    for (const property of declaration.properties) {
      if (property.optional) continue;
      if (!(property.name in value)) problems.push(`${at}${property.name} is missing (${name})`);
      else if (value[property.name] === null && property.type && !includesNull(property.type)) {
        problems.push(`${at}${property.name} is null, which ${name} never is`);
      }
    }
    for (const [key, field] of Object.entries(value)) {
      const property = known.get(key);
      if (!property) {
        problems.push(`${at}${key} is not a field of ${name}`);
        continue;
      }
      if (field === null || typeof field !== "object" || !property.type) continue;
      const target = this.objectTypeOf(property.type, property.scope);
      if (!target || target === "any-keys") continue;
      const items = Array.isArray(field) ? field : [field];
      for (const [index, item] of items.entries()) {
        if (item && typeof item === "object" && !Array.isArray(item)) {
          const where = Array.isArray(field) ? `${at}${key}[${index}].` : `${at}${key}.`;
          problems.push(...this.shapeProblems(target, item as Record<string, unknown>, where));
        }
      }
    }
    return problems;
  }

  /**
   * Problems with a request's parameters against `name` (a *Params
   * interface): a parameter the API does not have, at any depth.
   */
  paramProblems(name: string, params: Record<string, unknown>, at = ""): string[] {
    const declaration = this.interfaceNamed(name);
    const known = new Map(declaration.properties.map((p) => [p.name, p]));
    if (declaration.extendsPagination) {
      for (const key of ["limit", "starting_after", "ending_before"]) {
        known.set(key, { name: key, optional: true, type: undefined, scope: [] });
      }
    }
    const problems: string[] = [];
    for (const [key, value] of Object.entries(params)) {
      const property = known.get(key);
      if (!property) {
        problems.push(`${at}${key} is not a parameter of ${name}`);
        continue;
      }
      problems.push(...this.valueProblems(property, value, `${at}${key}`));
    }
    return problems;
  }

  private valueProblems(property: Property, value: unknown, at: string): string[] {
    if (value === null || typeof value !== "object" || !property.type) return [];
    const target = this.objectTypeOf(property.type, property.scope);
    if (target === "any-keys") return [];
    if (Array.isArray(value)) {
      return value.flatMap((item, index) =>
        target ? this.nested(target, item, `${at}[${index}].`) : [],
      );
    }
    if (!target) return [`${at} is an object, but ${property.name} takes none`];
    return this.nested(target, value, `${at}.`);
  }

  private nested(target: string, value: unknown, at: string): string[] {
    if (value === null || typeof value !== "object" || Array.isArray(value)) return [];
    return this.paramProblems(target, value as Record<string, unknown>, at);
  }

  /** The interface a property's value is (through Emptyable, Array and unions), or "any-keys" for metadata. */
  private objectTypeOf(type: ts.TypeNode, scope: string[]): string | "any-keys" | undefined {
    if (ts.isUnionTypeNode(type)) {
      for (const member of type.types) {
        const found = this.objectTypeOf(member, scope);
        if (found) return found;
      }
      return undefined;
    }
    if (ts.isArrayTypeNode(type)) return this.objectTypeOf(type.elementType, scope);
    if (ts.isTypeLiteralNode(type)) return "any-keys";
    if (!ts.isTypeReferenceNode(type)) return undefined;
    const name = entityName(type.typeName);
    if (name === "Emptyable" || name === "Array") {
      const inner = type.typeArguments?.[0];
      return inner ? this.objectTypeOf(inner, scope) : undefined;
    }
    if (/^(Stripe\.)?(MetadataParam|Metadata)$/.test(name) || name === "Record") return "any-keys";
    for (let depth = scope.length; depth >= 0; depth--) {
      const candidate = [...scope.slice(0, depth), name].join(".");
      if (this.declarations.has(candidate)) return candidate;
    }
    return undefined;
  }
}

function entityName(name: ts.EntityName): string {
  return ts.isIdentifier(name) ? name.text : `${entityName(name.left)}.${name.right.text}`;
}

function includesNull(type: ts.TypeNode): boolean {
  if (type.kind === ts.SyntaxKind.NullKeyword) return true;
  if (ts.isLiteralTypeNode(type)) return type.literal.kind === ts.SyntaxKind.NullKeyword;
  if (ts.isUnionTypeNode(type)) return type.types.some(includesNull);
  if (ts.isParenthesizedTypeNode(type)) return includesNull(type.type);
  return false;
}
