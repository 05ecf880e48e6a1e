import { type ConfigSchema, closedSchemaUndeclaredSecrets } from '@mycelo/septum'
import { coreReason } from '../i18n/reason-words.ts'
import { faultText } from './fault.ts'

/** A refusal says which rule failed, for a caller that words it itself, and `reason` in English. */
export type ConfigurationCheck =
  | { readonly ok: true; readonly config: Record<string, unknown> }
  | {
      readonly ok: false
      readonly problem: 'secrets_undeclared'
      readonly keys: string
      readonly reason: string
    }
  | { readonly ok: false; readonly problem: 'unchecked'; readonly detail: string; readonly reason: string }
  | { readonly ok: false; readonly problem: 'incomplete'; readonly issues: string; readonly reason: string }

/**
 * Validates stored settings against the default export's configSchema (none: they pass as-is) and
 * refuses a `secrets` key a closed JSON Schema does not declare, since that credential would never
 * be flagged and so would be served in the clear.
 */
export function checkConfiguration(
  schema: ConfigSchema | undefined,
  settings: Record<string, unknown>,
): ConfigurationCheck {
  if (schema === undefined) return { ok: true, config: settings }
  let undeclared: readonly string[]
  try {
    undeclared = closedSchemaUndeclaredSecrets(schema)
  } catch (error) {
    const detail = faultText(error)
    return {
      ok: false,
      problem: 'unchecked',
      detail,
      reason: coreReason('schemaUnpublishable', { detail }),
    }
  }
  if (undeclared.length > 0) {
    const keys = undeclared.map((key) => `"${key}"`).join(', ')
    return {
      ok: false,
      problem: 'secrets_undeclared',
      keys: undeclared.join(', '),
      reason: coreReason('secretsUndeclared', { keys }),
    }
  }
  let result: ReturnType<ConfigSchema['safeParse']>
  try {
    result = schema.safeParse(settings)
  } catch (error) {
    const detail = `safeParse() threw: ${faultText(error)}`
    return { ok: false, problem: 'unchecked', detail, reason: coreReason('configUnchecked', { detail }) }
  }
  if (typeof result !== 'object' || result === null || typeof result.success !== 'boolean') {
    const detail = 'safeParse() gave no { success } result'
    return { ok: false, problem: 'unchecked', detail, reason: coreReason('configUnchecked', { detail }) }
  }
  // The spore gets what its schema parsed, defaults and transforms applied.
  if (result.success) return { ok: true, config: result.data as Record<string, unknown> }
  const issues = Array.isArray(result.error?.issues) ? result.error.issues : []
  const text = issues.map(issueText).join('; ') || 'the schema refused the settings without saying why'
  return {
    ok: false,
    problem: 'incomplete',
    issues: text,
    reason: coreReason('configIncomplete', { issues: text }),
  }
}

function issueText(issue: {
  readonly path?: readonly (string | number)[]
  readonly message?: string
}): string {
  const path = Array.isArray(issue.path) ? issue.path.join('.') : ''
  const message = String(issue.message ?? 'invalid')
  return path === '' ? message : `${path}: ${message}`
}
