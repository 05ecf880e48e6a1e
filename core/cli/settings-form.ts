// `bun run mycelo form <spore>`: the settings form chat's /admin.form and the page show, from the
// same mycelium formSchema (labels and help from the spore's catalogue, in the bot's language).
import { type FieldType, type FormField, formFields } from '@mycelo/septum'
import { pluginsConfigure } from '../mycelium/configure.ts'
import { type Answer, ok, say } from './answer.ts'
import type { CliRuntime } from './runtime.ts'

const yesNo = (value: boolean) => (value ? 'yes' : 'no')

export async function settingsForm(cli: CliRuntime, plugin: string): Promise<Answer> {
  const form = await pluginsConfigure(cli.runtime, cli.plugins).formSchema(plugin)
  if (!form.available)
    return { code: 1, text: say(cli, 'cli.formUnavailable', { plugin, reason: form.reason }) }
  const fields = formFields(form)
  if (fields.length === 0) return ok(cli, 'cli.formEmpty', { plugin })
  const lines = fields.flatMap((field) => fieldLines(cli, field))
  return { code: 0, text: [say(cli, 'cli.formTitle', { plugin }), ...lines].join('\n') }
}

function fieldLines(cli: CliRuntime, field: FormField): string[] {
  const label =
    field.title === undefined ? field.key : say(cli, 'cli.formTitled', { title: field.title, key: field.key })
  const line = say(cli, 'cli.formField', {
    label,
    type: typeText(cli, field.type),
    hasDefault: yesNo(field.hasDefault),
    default: JSON.stringify(field.default),
    required: yesNo(field.required),
    secret: yesNo(field.secret),
  })
  return field.help === undefined ? [line] : [line, say(cli, 'cli.formHelp', { help: field.help })]
}

function typeText(cli: CliRuntime, type: FieldType): string {
  if (type.kind === 'oneOf')
    return say(cli, 'cli.formOneOf', { values: type.values.map((value) => JSON.stringify(value)).join(', ') })
  if (type.kind === 'anyOf') return type.members.map((member) => typeText(cli, member)).join(' | ')
  return type.types.map((each) => say(cli, 'cli.formType', { type: each })).join(' | ')
}
