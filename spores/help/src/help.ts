import type { CommandInfo, EnzymeContext, Invocation, Mycelium } from '@mycelo/septum'
import type { HelpConfig } from './config.ts'
import { matching, typedNames, usageLine } from './usage.ts'

type Context = EnzymeContext<HelpConfig>

/** What one answer is drawn from: the reader's commands and the names they type them by. */
interface Listing {
  readonly commands: readonly CommandInfo[]
  readonly names: ReadonlyMap<CommandInfo, string>
  readonly prefix: string
  /** How the reader calls this very command, for the sentences that point back to it. */
  readonly help: string
}

/** `/help` lists what the reader may run here; `/help <command>` explains one of them. */
export async function help(invocation: Invocation, ctx: Context): Promise<void> {
  const { message } = invocation
  const mycelium = ctx.rhiza<Mycelium<'commands.read'>>('mycelium')
  const commands = await mycelium.available(ctx.principal, ctx.locale, {
    channel: message.channel,
    kind: message.group === undefined ? 'dm' : 'group',
  })
  const { prefix } = ctx.config
  const names = typedNames(commands)
  const own = commands.find((info) => info.plugin === 'help' && info.name === invocation.command)
  const help = `${prefix}${own === undefined ? invocation.command : (names.get(own) ?? own.qualified)}`
  const listing: Listing = { commands, names, prefix, help }
  const wanted = invocation.args.command?.trim() ?? ''
  await ctx.reply({ text: wanted === '' ? everything(listing, ctx) : explanation(listing, wanted, ctx) })
}

function everything(listing: Listing, ctx: Context): string {
  const { commands } = listing
  if (commands.length === 0) return ctx.t('help.nothing')
  return [
    ctx.t('help.title', { count: commands.length }),
    ...commands.map((info) => headline(info, listing, ctx)),
    '',
    ctx.t('help.more', { help: listing.help }),
  ].join('\n')
}

function explanation(listing: Listing, wanted: string, ctx: Context): string {
  const found = matching(listing.commands, wanted, listing.prefix)
  if (found.length === 0) return ctx.t('help.unknown', { command: wanted, help: listing.help })
  return found.map((info) => details(info, listing, ctx)).join('\n\n')
}

function headline(info: CommandInfo, listing: Listing, ctx: Context): string {
  const usage = usageLine(listing.names.get(info) ?? info.qualified, info, listing.prefix)
  return ctx.t('help.line', { usage, description: info.description })
}

function details(info: CommandInfo, listing: Listing, ctx: Context): string {
  const args = info.args ?? []
  if (args.length === 0) return [headline(info, listing, ctx), ctx.t('help.noArgs')].join('\n')
  const lines = args.map((arg) =>
    ctx.t(arg.required ? 'help.arg.required' : 'help.arg.optional', {
      name: arg.name,
      description: arg.description,
    }),
  )
  return [headline(info, listing, ctx), ...lines].join('\n')
}
