// The portability rules a tool schema is held to, as the MCP Inspector's
// `--strict` check states them (its `type-union` warning among them) and as
// strict clients enforce them (VS Code and OpenAI refuse an array without
// `items`; Claude Code a bare `true`; single-type dialects a `type` list).

type Schema = Record<string, unknown>;

export interface Finding {
  readonly at: string;
  readonly rule: 'type-union' | 'array-items' | 'boolean-schema' | 'root-object' | 'ref' | 'dialect' | 'branch-type' | 'anything';
}

const isSchema = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);

function walk(schema: unknown, at: string, findings: Finding[]): void {
  if (typeof schema === 'boolean') {
    findings.push({ at, rule: 'boolean-schema' });
    return;
  }
  if (!isSchema(schema)) return;
  if (Array.isArray(schema.type)) findings.push({ at, rule: 'type-union' });
  if ('$ref' in schema || '$defs' in schema || 'definitions' in schema) findings.push({ at, rule: 'ref' });
  if ('$schema' in schema) findings.push({ at, rule: 'dialect' });
  // `{}` is the object spelling of a bare `true`: it constrains nothing (the Inspector warns of both).
  if (Object.keys(schema).length === 0) findings.push({ at, rule: 'anything' });
  if (schema.type === 'array' && !isSchema(schema.items)) findings.push({ at, rule: 'array-items' });
  for (const [name, property] of Object.entries(isSchema(schema.properties) ? schema.properties : {})) {
    walk(property, `${at}.${name}`, findings);
  }
  if (schema.items !== undefined) walk(schema.items, `${at}[]`, findings);
  // `additionalProperties: false` closes an input object: a keyword's value, not a schema a value must match.
  if (isSchema(schema.additionalProperties)) walk(schema.additionalProperties, `${at}{}`, findings);
  for (const [i, branch] of (Array.isArray(schema.anyOf) ? schema.anyOf : []).entries()) {
    if (isSchema(branch) && branch.type === undefined && branch.const === undefined && branch.enum === undefined) {
      findings.push({ at: `${at}|${i}`, rule: 'branch-type' });
    }
    walk(branch, `${at}|${i}`, findings);
  }
}

/** The findings for one tool's schemas; none is what every tool must show. */
export function lintTool(tool: { name: string; inputSchema: unknown; outputSchema?: unknown }): Finding[] {
  const findings: Finding[] = [];
  for (const [kind, schema] of [
    ['in', tool.inputSchema],
    ['out', tool.outputSchema],
  ] as const) {
    if (schema === undefined) continue;
    if (!isSchema(schema) || schema.type !== 'object') findings.push({ at: `${tool.name}.${kind}`, rule: 'root-object' });
    walk(schema, `${tool.name}.${kind}`, findings);
  }
  return findings;
}
