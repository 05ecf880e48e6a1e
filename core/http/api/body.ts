// Request bodies, checked by their zod schema before any mycelium function sees them: a body that
// is not JSON, or not the shape asked, is a 400 naming the first field at fault.
import { z } from 'zod'
import type { CoreRuntime } from '../../rhizomorph/runtime.ts'
import type { ErrorBody } from './answer.ts'
import type { ApiContext } from './session-port.ts'

export type BodyReading<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly answer: Response }

export async function readBody<T>(
  runtime: CoreRuntime,
  c: ApiContext,
  schema: z.ZodType<T>,
): Promise<BodyReading<T>> {
  const locale = c.get('locale')
  const word = (key: string, params: Record<string, unknown>) =>
    runtime.translator.render({ domain: 'core', key, params }, locale)
  let raw: unknown
  try {
    raw = await c.req.json()
  } catch {
    const body: ErrorBody = { error: word('api.body.notJson', {}), key: 'api.body.notJson', field: '' }
    return { ok: false, answer: c.json(body, 400) }
  }
  const parsed = schema.safeParse(raw, { error: zodWords(locale) })
  if (parsed.success) return { ok: true, value: parsed.data }
  const issue = parsed.error.issues[0]
  const field = issue === undefined ? '' : fieldOf(issue)
  const problem = issue?.message ?? ''
  const key = field === '' ? 'api.body.invalidWhole' : 'api.body.invalid'
  const body: ErrorBody = { error: word(key, { field, problem }), key, field }
  return { ok: false, answer: c.json(body, 400) }
}

/** `settings.token`, `patterns[2]`; an unknown key is named itself rather than its parent. */
function fieldOf(issue: z.core.$ZodIssue): string {
  const path = issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0] ?? ''] : issue.path
  return path
    .map((part, index) =>
      typeof part === 'number' ? `[${part}]` : `${index === 0 ? '' : '.'}${String(part)}`,
    )
    .join('')
}

type ZodLocale = () => { localeError: z.core.$ZodErrorMap }

/** zod's own wording of a problem in the reader's language, where zod ships it; English otherwise. */
function zodWords(locale: string): z.core.$ZodErrorMap {
  const shipped = z.locales as unknown as Readonly<Record<string, ZodLocale | undefined>>
  const language = locale.split('-')[0] ?? 'en'
  const words = Object.hasOwn(shipped, language) ? shipped[language] : undefined
  return (words ?? z.locales.en)().localeError
}
