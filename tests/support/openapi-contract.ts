import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

/**
 * Holds /api/openapi.json to what the API really takes and answers: a
 * request the API accepted must be valid by the document, and every answer
 * must have a documented status whose schema its body matches. Compiled
 * with a JSON Schema validator (Ajv, draft 2020-12 as OpenAPI 3.1 uses),
 * the way a generated client would read the document, so a pattern or a
 * field a client cannot use fails here.
 */

type Schema = Record<string, unknown>;
type Parameter = { name: string; in: string; required?: boolean; schema: Schema };
type Operation = {
  operationId?: string;
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema?: Schema }> }>;
};
export type OpenApiDocument = {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
};

export type ContractCall = {
  method: string;
  url: URL;
  body?: unknown;
  status: number;
  contentType: string | null;
  answer?: unknown;
};

const DOCUMENT_ID = "https://salon-navi.invalid/openapi.json";

/**
 * A path or query value is text on the wire; a parameter documented as a
 * number is read as one (page=2 is the integer 2), as a client sends it.
 */
function wireValue(schema: Schema, value: string): unknown {
  const numeric = schema.type === "integer" || schema.type === "number";
  return numeric && /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
}

export function openApiContract(document: OpenApiDocument) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ ...document, $id: DOCUMENT_ID });
  const compiled = new Map<string, ReturnType<typeof ajv.compile>>();
  /** A validator for the schema at this JSON pointer of the document. */
  const validatorAt = (pointer: string[]) => {
    const ref = `${DOCUMENT_ID}#/${pointer.map((p) => p.replaceAll("~", "~0").replaceAll("/", "~1")).join("/")}`;
    let validate = compiled.get(ref);
    if (!validate) {
      validate = ajv.compile({ $ref: ref });
      compiled.set(ref, validate);
    }
    return validate;
  };
  const problemsOf = (pointer: string[], value: unknown) => {
    const validate = validatorAt(pointer);
    return validate(value)
      ? []
      : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
  };

  const templates = Object.keys(document.paths).map((template) => ({
    template,
    pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, "([^/]+)")}$`),
    names: [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string),
  }));

  /** The documented operation a call is for, or undefined when the document has none. */
  function operationOf(method: string, pathname: string) {
    for (const { template, pattern, names } of templates) {
      const match = pattern.exec(pathname);
      const operation = document.paths[template]?.[method.toLowerCase()];
      if (match && operation) {
        const params = Object.fromEntries(
          names.map((name, i) => [name, decodeURIComponent(match[i + 1] ?? "")]),
        );
        return { template, operation, params, key: `${method.toLowerCase()} ${template}` };
      }
    }
    return undefined;
  }

  /** What the document says is wrong with a request: its parameters and body. */
  function requestProblems(
    found: NonNullable<ReturnType<typeof operationOf>>,
    call: Pick<ContractCall, "method" | "url" | "body">,
  ) {
    const { template, operation, params } = found;
    const method = call.method.toLowerCase();
    const problems: string[] = [];
    (operation.parameters ?? []).forEach((parameter, index) => {
      const values =
        parameter.in === "path"
          ? [params[parameter.name]].filter((v) => v !== undefined)
          : parameter.in === "query"
            ? call.url.searchParams.getAll(parameter.name)
            : [];
      if (values.length === 0) {
        if (parameter.required && parameter.in !== "header")
          problems.push(`parameter ${parameter.name} missing`);
        return;
      }
      for (const value of values) {
        for (const p of problemsOf(
          ["paths", template, method, "parameters", String(index), "schema"],
          wireValue(parameter.schema, value),
        ))
          problems.push(`parameter ${parameter.name}${p}`);
      }
    });
    const body = operation.requestBody?.content["application/json"];
    if (body && call.body !== undefined) {
      for (const p of problemsOf(
        ["paths", template, method, "requestBody", "content", "application/json", "schema"],
        call.body,
      ))
        problems.push(`body${p}`);
    } else if (body && operation.requestBody?.required) {
      problems.push("body missing");
    }
    return problems;
  }

  /**
   * Every way this call disagrees with the document (empty when it agrees).
   * A call to a path the document does not describe is not judged.
   */
  function check(call: ContractCall): string[] {
    const found = operationOf(call.method, call.url.pathname);
    if (!found) return [];
    const { template, operation } = found;
    const method = call.method.toLowerCase();
    const problems: string[] = [];
    const where = `${call.method} ${call.url.pathname}${call.url.search} → ${call.status}`;
    if (call.status < 300) {
      for (const p of requestProblems(found, call))
        problems.push(`${where}: accepted a request the document refuses: ${p}`);
    }
    const response = operation.responses[String(call.status)] ?? operation.responses.default;
    if (!response) {
      problems.push(`${where}: status not in the document`);
      return problems;
    }
    const type = (call.contentType ?? "").split(";")[0]?.trim() ?? "";
    const documented = response.content ?? {};
    if (Object.keys(documented).length > 0 && !(type in documented)) {
      problems.push(`${where}: content type ${type || "(none)"} not in the document`);
    } else if (type === "application/json" && documented[type]?.schema) {
      const status = operation.responses[String(call.status)] ? String(call.status) : "default";
      for (const p of problemsOf(
        ["paths", template, method, "responses", status, "content", type, "schema"],
        call.answer,
      ))
        problems.push(`${where}: answer${p}`);
    }
    return problems;
  }

  return { check, operationOf, requestProblems };
}

/**
 * The document of an app, and a checker for its calls, made once per app.
 * Throws on the first call that disagrees, with every disagreement listed.
 */
const contracts = new WeakMap<object, Promise<ReturnType<typeof openApiContract>>>();
export async function checkCall(
  app: { request: (input: string, init?: RequestInit) => Response | Promise<Response> },
  origin: string,
  call: ContractCall,
) {
  let contract = contracts.get(app);
  if (!contract) {
    contract = Promise.resolve(app.request(`${origin}/api/openapi.json`))
      .then((response) => response.json())
      .then((document) => openApiContract(document as OpenApiDocument));
    contracts.set(app, contract);
  }
  const problems = (await contract).check(call);
  if (problems.length > 0) {
    throw new Error(`The API and /api/openapi.json disagree:\n${problems.join("\n")}`);
  }
}
