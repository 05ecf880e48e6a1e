// Mycelium Outcomes as HTTP answers: a value is 200 JSON, a refusal its translated reason with
// the status that fits it. The rule that refused is the mycelium's; this only words it.
import type { OutcomeOf, TranslatableRef } from '@mycelo/septum'
import type { CoreRuntime } from '../../rhizomorph/runtime.ts'
import type { ApiContext } from './session-port.ts'

/** Refusals about something that is not there. */
const NOT_FOUND = new Set([
  'principal_unknown',
  'role_unknown',
  'plugin_unknown',
  'command_unknown',
  'context_rule_absent',
  'inhibitor_unknown',
  'channel_unknown',
  'broadcast_target_absent',
  'conversation_unknown',
  'source_unknown',
  'setting_absent',
  'sporangium_spore_unknown',
  'sporangium_strain_unknown',
  'spore_not_installed',
  'agent_key_unknown',
])

/** Refusals of a value the caller gave, whatever the bot's state. */
const UNPROCESSABLE = new Set([
  'role_name_empty',
  'role_name_invalid',
  'pattern_duplicate',
  'pattern_invalid',
  'setting_undeclared',
  'setting_not_storable',
  'setting_invalid',
  'kinds_empty',
  'kind_invalid',
  'conversation_empty',
  'locale_unavailable',
  'source_local',
  'source_url_invalid',
  'source_url_scheme',
  'source_url_github',
  'source_url_credentials',
  'source_label_invalid',
  'source_token_invalid',
  'source_key_invalid',
  'source_enabled_invalid',
  'spore_name_invalid',
  'agent_key_label',
  'agent_key_principal_missing',
])

/** The role ceiling's refusals: the person's own roles do not reach that far. */
const FORBIDDEN = new Set([
  'patterns_uncovered',
  'owner_only',
  'holder_above',
  'holder_owner',
  'agent_key_own_only',
])

/** The status a refusal answers with; anything about the bot's state (a lockout, a guard) is 409. */
export function refusalStatus(ref: TranslatableRef): 404 | 422 | 403 | 409 {
  const key = ref.key.startsWith('refusal.') ? ref.key.slice('refusal.'.length) : ref.key
  if (NOT_FOUND.has(key)) return 404
  if (UNPROCESSABLE.has(key)) return 422
  if (FORBIDDEN.has(key)) return 403
  return 409
}

/** The body of every error answer: the reason in the reader's words, and its key for a program. */
export interface ErrorBody {
  readonly error: string
  readonly key: string
  readonly field?: string
}

export function refusalBody(runtime: CoreRuntime, ref: TranslatableRef, locale: string): ErrorBody {
  return { error: runtime.translator.render(ref, locale), key: ref.key }
}

export function refusalResponse(
  runtime: CoreRuntime,
  c: ApiContext,
  ref: TranslatableRef,
  status: number = refusalStatus(ref),
): Response {
  return c.json(refusalBody(runtime, ref, c.get('locale')), status as 409)
}

/** 200 with the value (or `shown(value)`), or the refusal. */
export function answerOutcome<T>(
  runtime: CoreRuntime,
  c: ApiContext,
  outcome: OutcomeOf<T> | { readonly ok: true } | { readonly ok: false; readonly refusal: TranslatableRef },
  shown: (value: T) => unknown = (value) => value ?? { ok: true },
): Response {
  if (!outcome.ok) return refusalResponse(runtime, c, outcome.refusal)
  const value = 'value' in outcome ? (outcome.value as T) : (undefined as T)
  return c.json(shown(value) as object)
}

/** A 404 for a thing the caller named that is not there, in the core's words. */
export function notFound(runtime: CoreRuntime, c: ApiContext, key: string, params: Record<string, unknown>) {
  return refusalResponse(runtime, c, { domain: 'core', key, params }, 404)
}
