import {
  type ConfigIssue,
  type ConfigSchema,
  closedSchemaUndeclaredSecrets,
  type RawZodIssue,
  type TranslatableRef,
  toConfigIssue,
} from '@mycelo/septum'
import { coreReason, wordedList } from '../i18n/reason-words.ts'
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
  | {
      readonly ok: false
      readonly problem: 'incomplete'
      /** In English, as the kept reason says them; `issueRefs` words them for a reader. */
      readonly issues: string
      readonly issueRefs: readonly (TranslatableRef | string)[]
      readonly reason: string
    }

/**
 * Validates stored settings against the default export's configSchema (none: they pass as-is) and
 * refuses a `secrets` key a closed JSON Schema does not declare, since that credential would never
 * be flagged and so would be served in the clear. Asynchronous: an isolated spore's safeParse runs
 * in its host, and the core awaits it rather than block its thread on another.
 */
export async function checkConfiguration(
  schema: ConfigSchema | undefined,
  settings: Record<string, unknown>,
  /** Whose catalogue words a problem the spore's own checks raise. */
  spore?: string,
): Promise<ConfigurationCheck> {
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
    result = await schema.safeParse(settings)
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
  const parts = issues.map((issue) => issueRef(issue, spore))
  const { text, refs } = wordedList(parts.length > 0 ? parts : [coreRefOf('noIssues')])
  return {
    ok: false,
    problem: 'incomplete',
    issues: text,
    issueRefs: refs,
    reason: coreReason('configIncomplete', { issues: text }, { issues: refs }),
  }
}

const coreRefOf = (key: string): TranslatableRef => ({ domain: 'core', key: `reason.${key}` })

/**
 * One problem as a person reads it: the field, then what is wrong in the `common` words septum
 * maps each Zod issue to (a spore's own check in its own catalogue), never the validator's English.
 * An issue with no code is no Zod issue: a hand-written schema's own words, kept as they are.
 */
function issueRef(
  issue: RawZodIssue & { readonly messageKey?: unknown; readonly params?: unknown },
  spore?: string,
): TranslatableRef | string {
  const field = Array.isArray(issue.path) ? issue.path.join('.') : ''
  const hasKey = typeof issue.messageKey === 'object' || typeof issue.messageKey === 'string'
  if (!hasKey && issue.code === undefined) {
    const message = String(issue.message ?? '')
    return field === '' ? message : `${field}: ${message}`
  }
  const { messageKey, params } = (hasKey ? issue : toConfigIssue(issue)) as ConfigIssue
  let problem: TranslatableRef
  if (typeof messageKey === 'object' && messageKey !== null) {
    problem = { ...messageKey, params: { ...messageKey.params, ...params } }
  } else if (typeof messageKey === 'string' && spore !== undefined) {
    problem = { domain: spore, key: messageKey, ...(params ? { params } : {}) }
  } else {
    problem = coreRefOf('issueUnworded')
  }
  return field === '' ? problem : { domain: 'core', key: 'reason.issue', params: { field, problem } }
}
