// A spore's settings as a form drawn from the JSON Schema it publishes. Validation runs in the
// browser on validators the API compiled (the CSP allows no code compiled here); the bot checks
// again on save. A secret reads as •••• and saving it unchanged keeps what is stored.
import Form from '@rjsf/core'
import {
  englishStringTranslator,
  type RJSFSchema,
  type RJSFValidationError,
  TranslatableString,
  type UiSchema,
  type ValidatorType,
} from '@rjsf/utils'
import createPrecompiledValidator from '@rjsf/validator-ajv8/lib/createPrecompiledValidator.js'
import { useEffect, useState } from 'react'
import { api, part } from '../api.ts'
import { useCan } from '../session.ts'
import { useWords } from '../words.ts'
import { Empty, Loading, Notice, Problem } from './bits.tsx'
import { describe, useAction } from './load.ts'

const MASK = '••••'

/** The form library's own words the page has in its catalogue; the rest stay as it writes them. */
const FORM_WORDS: Partial<Record<TranslatableString, string>> = {
  [TranslatableString.AddButton]: 'form.add',
  [TranslatableString.AddItemButton]: 'form.add',
  [TranslatableString.RemoveButton]: 'form.remove',
  [TranslatableString.MoveUpButton]: 'form.up',
  [TranslatableString.MoveDownButton]: 'form.down',
  [TranslatableString.CopyButton]: 'form.copy',
  [TranslatableString.YesLabel]: 'form.yes',
  [TranslatableString.NoLabel]: 'form.no',
}

type FormAnswer =
  | { available: true; schema: RJSFSchema; secrets: string[] }
  | { available: false; reason: string }

interface Ready {
  readonly form: FormAnswer
  readonly values: Record<string, unknown>
  readonly validator?: ValidatorType
}

export function SettingsForm({ spore, onSaved }: { readonly spore: string; readonly onSaved: () => void }) {
  const words = useWords()
  const { t } = words
  const can = useCan()
  const [ready, setReady] = useState<Ready>()
  const [error, setError] = useState<string>()
  const [draft, setDraft] = useState<Record<string, unknown>>({})
  const [round, setRound] = useState(0)
  const action = useAction(words, () => {
    onSaved()
    setRound((value) => value + 1)
  })

  // biome-ignore lint/correctness/useExhaustiveDependencies: read again for another spore or after a save, not on each render's helpers
  useEffect(() => {
    let current = true
    setReady(undefined)
    setError(undefined)
    ;(async () => {
      const name = part(spore)
      const [form, settings] = await Promise.all([
        api<FormAnswer>(`/spores/${name}/form`),
        can('admin.settings')
          ? api<{ values: Record<string, unknown> }>(`/spores/${name}/settings`)
          : Promise.resolve({ values: {} }),
      ])
      let validator: ValidatorType | undefined
      if (form.available) {
        // A module from this origin, compiled by the API for exactly this schema. A document imports a
        // URL once, so the schema's own fingerprint is in it: the same form in another language (its
        // labels differ) or a spore's new version gets its own module rather than the first one's.
        const url = `/api/v1/spores/${name}/form/validators.js?schema=${fingerprint(JSON.stringify(form.schema))}`
        const compiled = (await import(url)) as Record<string, unknown>
        validator = createPrecompiledValidator(compiled as never, form.schema)
      }
      if (!current) return
      setReady({ form, values: settings.values, ...(validator ? { validator } : {}) })
      setDraft(settings.values)
    })().catch((problem: unknown) => current && setError(describe(problem, words)))
    return () => {
      current = false
    }
  }, [spore, round])

  if (error) return <Problem text={error} retry={() => setRound((value) => value + 1)} />
  if (!ready) return <Loading />
  const { form } = ready
  if (!form.available) {
    return <Empty title={t('settings.unavailable', { spore })}>{form.reason}</Empty>
  }
  const properties = (form.schema.properties ?? {}) as Record<string, RJSFSchema>
  if (Object.keys(properties).length === 0) {
    return <Empty title={t('settings.none', { spore })}>{t('settings.noneText')}</Empty>
  }
  const uiSchema: UiSchema = {
    'ui:submitButtonOptions': {
      submitText: t('action.saveSettings'),
      norender: !can('admin.set'),
    },
  }
  for (const secret of form.secrets) {
    uiSchema[secret] = { 'ui:widget': 'password', 'ui:help': t('settings.secretHelp') }
  }
  // •••• stands for the stored secret: the schema's own rules are the bot's to check on it.
  const transformErrors = (errors: RJSFValidationError[]) =>
    errors.filter((problem) => {
      const key = (problem.property ?? '').replace(/^\./, '').split('.')[0] ?? ''
      return !(form.secrets.includes(key) && draft[key] === MASK)
    })

  const save = (values: Record<string, unknown>) =>
    action.run(
      'save',
      async () => {
        const name = part(spore)
        const kept = Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined))
        await api(`/spores/${name}/settings`, { method: 'PATCH', body: { values: kept } })
        // A field emptied in the form is removed, as /unset does in chat.
        if (can('admin.unset')) {
          for (const key of Object.keys(ready.values)) {
            if (!(key in kept)) await api(`/spores/${name}/settings/${part(key)}`, { method: 'DELETE' })
          }
        }
      },
      t('settings.saved', { spore }),
    )

  return (
    <div className="settings-form">
      <Notice notice={action.notice} />
      <Form
        schema={form.schema}
        uiSchema={uiSchema}
        formData={draft}
        validator={ready.validator!}
        transformErrors={transformErrors}
        translateString={(text, params) => {
          const key = FORM_WORDS[text]
          return key ? t(key) : englishStringTranslator(text, params)
        }}
        showErrorList={false}
        noHtml5Validate
        disabled={!can('admin.set') || action.busy !== undefined}
        onChange={(event) => setDraft((event.formData ?? {}) as Record<string, unknown>)}
        onSubmit={(event) => save((event.formData ?? {}) as Record<string, unknown>)}
      />
    </div>
  )
}

/** FNV-1a over the text, in hex: enough to tell one schema from another in a URL. */
function fingerprint(text: string): string {
  let hash = 0x811c9dc5
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index)
    hash = Math.imul(hash, 0x01000193) >>> 0
  }
  return hash.toString(16)
}
