import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

/**
 * What LINE's published Messaging API description says about the endpoints
 * and bodies we use, read from the installed `@line/bot-sdk`: its clients and
 * model types are generated from LINE's OpenAPI documents
 * (line/line-openapi), so they are that description as of the SDK we ship.
 * The fake (server/line/fake/) is checked against this, as the fake Stripe is
 * against the `stripe` package (tests/support/stripe-sdk-types.ts).
 */
const MESSAGING_API = path.resolve("node_modules/@line/bot-sdk/dist/messaging-api");

/** Every (method, path) the Messaging API client can call, `{name}` for each path parameter. */
export function lineSdkEndpoints(): Set<string> {
  const source = readFileSync(path.join(MESSAGING_API, "api/messagingApiClient.js"), "utf8");
  const endpoints = new Set<string>();
  for (const match of source.matchAll(
    /Calls `(GET|POST|PUT|DELETE) https:\/\/api\.line\.me(\/[^`?]*)`/g,
  )) {
    endpoints.add(`${match[1]} ${match[2]}`);
  }
  return endpoints;
}

type Property = { name: string; optional: boolean };

/** The model types (`export type X = …`) of the Messaging API, by name. */
export class LineSdkTypes {
  private readonly aliases = new Map<string, ts.TypeNode>();

  constructor() {
    const dir = path.join(MESSAGING_API, "model");
    for (const file of readdirSync(dir).filter((name) => name.endsWith(".d.ts"))) {
      const text = readFileSync(path.join(dir, file), "utf8");
      const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
      for (const statement of source.statements) {
        if (ts.isTypeAliasDeclaration(statement)) {
          this.aliases.set(statement.name.text, statement.type);
        }
      }
    }
  }

  has(type: string) {
    return this.aliases.has(type);
  }

  /** The properties of an object type, through intersections (`MessageBase & { … }`). */
  properties(type: string): Property[] {
    const node = this.aliases.get(type);
    if (!node) throw new Error(`${type} is not a type of the Messaging API`);
    return this.propertiesOf(node);
  }

  private propertiesOf(node: ts.TypeNode): Property[] {
    if (ts.isIntersectionTypeNode(node)) return node.types.flatMap((t) => this.propertiesOf(t));
    if (ts.isTypeReferenceNode(node) && ts.isIdentifier(node.typeName)) {
      return this.properties(node.typeName.text);
    }
    if (ts.isTypeLiteralNode(node)) {
      return node.members.flatMap((member) =>
        ts.isPropertySignature(member) && member.name && ts.isIdentifier(member.name)
          ? [{ name: member.name.text, optional: member.questionToken !== undefined }]
          : [],
      );
    }
    return [];
  }

  /** The literal `type` of each member of a union (`Message` → { text: "TextMessage", … }). */
  discriminants(union: string): Record<string, string> {
    const node = this.aliases.get(union);
    if (!node || !ts.isUnionTypeNode(node)) throw new Error(`${union} is not a union`);
    const byType: Record<string, string> = {};
    for (const member of node.types) {
      if (!ts.isTypeReferenceNode(member) || !ts.isIdentifier(member.typeName)) continue;
      const name = member.typeName.text;
      const literal = this.literalType(this.aliases.get(name));
      if (literal) byType[literal] = name;
    }
    return byType;
  }

  private literalType(node: ts.TypeNode | undefined): string | null {
    if (!node) return null;
    if (ts.isIntersectionTypeNode(node)) {
      for (const t of node.types) {
        const found = this.literalType(t);
        if (found) return found;
      }
      return null;
    }
    if (!ts.isTypeLiteralNode(node)) return null;
    for (const member of node.members) {
      if (
        ts.isPropertySignature(member) &&
        member.name &&
        ts.isIdentifier(member.name) &&
        member.name.text === "type" &&
        member.type &&
        ts.isLiteralTypeNode(member.type) &&
        ts.isStringLiteral(member.type.literal)
      ) {
        return member.type.literal.text;
      }
    }
    return null;
  }

  /** Fields the object has that the type does not, and required fields it lacks. */
  shapeProblems(type: string, value: Record<string, unknown>): string[] {
    const properties = this.properties(type);
    const known = new Set(properties.map((p) => p.name));
    return [
      ...Object.keys(value)
        .filter((key) => !known.has(key))
        .map((key) => `${key} is not a field of ${type}`),
      ...properties
        .filter((p) => !p.optional && !(p.name in value))
        .map((p) => `${p.name} is missing (${type})`),
    ];
  }
}
