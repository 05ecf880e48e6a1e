import { closedSchemaUndeclaredSecrets } from '../config/index.ts'
import type { ConfigSchema } from '../contract/index.ts'
import { errorText, type Failures, isRecord } from './failures.ts'
import type { SporeCheckOptions } from './options.ts'

/**
 * Checks the default export's configSchema the way the core uses it: a synchronous safeParse that
 * accepts the given config, refuses the invalid one with readable issues, and secrets the schema
 * declares.
 */
export function checkConfigSchema(module: unknown, options: SporeCheckOptions, failures: Failures): void {
  const schema = isRecord(module) ? module.configSchema : undefined
  if (schema === undefined) {
    if (options.invalidConfig !== undefined) {
      failures.add('configSchema: invalidConfig was given, but the module has no configSchema to refuse it')
    }
    return
  }
  if (!isRecord(schema) || typeof schema.safeParse !== 'function') {
    failures.add('configSchema: has no safeParse() function')
    return
  }
  const configSchema = schema as unknown as ConfigSchema
  if (options.config !== undefined) checkAccepted(configSchema, options.config, failures)
  if (options.invalidConfig !== undefined) checkRefused(configSchema, options.invalidConfig, failures)
  checkJsonSchema(configSchema, failures)
  checkSecrets(configSchema, failures)
}

function parse(schema: ConfigSchema, input: unknown, what: string, failures: Failures) {
  let result: unknown
  try {
    result = schema.safeParse(input)
  } catch (error) {
    failures.add(`configSchema: safeParse() threw on ${what}: ${errorText(error)}`)
    return undefined
  }
  if (!isRecord(result) || typeof result.success !== 'boolean') {
    const answer = result instanceof Promise ? 'a promise' : 'no { success } result'
    failures.add(`configSchema: safeParse() returned ${answer} for ${what}; it must answer synchronously`)
    return undefined
  }
  return result
}

function checkAccepted(schema: ConfigSchema, config: unknown, failures: Failures): void {
  const result = parse(schema, config, 'config', failures)
  if (result === undefined || result.success) return
  const issues = isRecord(result.error) && Array.isArray(result.error.issues) ? result.error.issues : []
  const text = issues.map(issueText).join('; ') || 'no issues given'
  failures.add(`configSchema: refused the valid config: ${text}`)
}

function checkRefused(schema: ConfigSchema, invalidConfig: unknown, failures: Failures): void {
  const result = parse(schema, invalidConfig, 'invalidConfig', failures)
  if (result === undefined) return
  if (result.success) {
    failures.add('configSchema: accepted invalidConfig, which it should refuse')
    return
  }
  const issues = isRecord(result.error) ? result.error.issues : undefined
  if (!Array.isArray(issues)) {
    failures.add(
      'configSchema: refused invalidConfig without error.issues; give an array of { path, message }',
    )
    return
  }
  if (issues.length === 0) {
    failures.add(
      'configSchema: refused invalidConfig with no issues; an operator would not learn what is wrong',
    )
    return
  }
  issues.forEach((issue, index) => {
    if (!isRecord(issue)) {
      failures.add(`configSchema: issue ${index} of the refusal is not an object`)
      return
    }
    const path = issue.path
    if (!Array.isArray(path) || !path.every((part) => typeof part === 'string' || typeof part === 'number')) {
      failures.add(
        `configSchema: issue ${index} of the refusal has no path array (empty for the whole object)`,
      )
    }
    if (typeof issue.message !== 'string' || issue.message.length === 0) {
      failures.add(`configSchema: issue ${index} of the refusal has no message string`)
    }
  })
}

function issueText(issue: unknown): string {
  if (!isRecord(issue)) return String(issue)
  const path = Array.isArray(issue.path) ? issue.path.join('.') : ''
  return path === '' ? String(issue.message) : `${path}: ${String(issue.message)}`
}

/** An optional toJsonSchema that throws leaves the operator without a settings form. */
function checkJsonSchema(schema: ConfigSchema, failures: Failures): void {
  const toJsonSchema = (schema as unknown as Record<string, unknown>).toJsonSchema
  if (toJsonSchema === undefined) return
  if (typeof toJsonSchema !== 'function') {
    failures.add(`configSchema: toJsonSchema is ${typeof toJsonSchema}, not a function`)
    return
  }
  try {
    const published: unknown = toJsonSchema.call(schema)
    if (!isRecord(published)) failures.add('configSchema: toJsonSchema() returned no JSON Schema object')
  } catch (error) {
    failures.add(`configSchema: toJsonSchema() threw: ${errorText(error)}`)
  }
}

/** A secrets key a closed schema does not declare leaves the spore dormant in the bot. */
function checkSecrets(schema: ConfigSchema, failures: Failures): void {
  const secrets: unknown = schema.secrets
  if (secrets === undefined) return
  if (!Array.isArray(secrets) || !secrets.every((key) => typeof key === 'string')) {
    failures.add('configSchema: secrets is not an array of setting keys')
    return
  }
  let undeclared: readonly string[]
  try {
    undeclared = closedSchemaUndeclaredSecrets(schema)
  } catch (error) {
    failures.add(`configSchema: secrets could not be checked: ${errorText(error)}`)
    return
  }
  for (const key of undeclared) {
    failures.add(
      `configSchema: secrets names "${key}", which the closed JSON Schema does not declare; ` +
        'the bot would leave the spore dormant',
    )
  }
}
