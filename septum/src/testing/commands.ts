import { guardOf, patternsAllow } from '../command/index.ts'
import type { EnzymeManifest, IncomingMessage } from '../contract/index.ts'
import type { Germinated } from './germinate.ts'

// How the test bot reads what a test says: the message a channel would emit, the command it names
// and whether the sender's roles allow it, refused with the reason the bot would give.

/** Who says a message, where, and in which language. */
export interface SayOptions {
  /** The sender's id on the channel, and their principal's id; `alice` unless given. */
  readonly person?: string
  readonly displayName?: string
  /** The sender's roles; `member` unless given. */
  readonly roles?: readonly string[]
  /** The reader's locale; the default locale unless given. */
  readonly locale?: string
  /** A group the message is said in (an id, or id and name); a direct message unless given. */
  readonly group?: string | { readonly id: string; readonly name?: string }
  /** `console` unless given. */
  readonly channel?: string
}

/** A command the bot would refuse before any handler runs, with the reason it gives. */
export class RefusedCommandError extends Error {
  constructor(readonly reason: string) {
    super(reason)
    this.name = 'RefusedCommandError'
  }
}

let messages = 0

export function messageOf(text: string, options: SayOptions): IncomingMessage {
  const channel = options.channel ?? 'console'
  const person = options.person ?? 'alice'
  const group = typeof options.group === 'string' ? { id: options.group } : options.group
  return {
    channel,
    conversationId: group?.id ?? `dm-${person}`,
    messageId: `m${++messages}`,
    ...(group === undefined ? {} : { group }),
    sender: {
      channel,
      externalId: person,
      ...(options.displayName ? { displayName: options.displayName } : {}),
    },
    text,
    attachments: [],
    raw: null,
    receivedAt: new Date(),
  }
}

interface Route {
  readonly spore: Germinated
  readonly command: EnzymeManifest['commands'][number]
}

/** `spore.command` always resolves; a bare name when exactly one enzyme declares it. */
export function findRoute(enzymes: readonly Germinated[], name: string): Route {
  const routes = enzymes.flatMap((spore) =>
    (spore.manifest as EnzymeManifest).commands.map((command) => ({ spore, command })),
  )
  const found = routes.filter(
    (route) => `${route.spore.name}.${route.command.name}` === name || route.command.name === name,
  )
  if (found.length === 1) return found[0]!
  if (found.length === 0) throw new RefusedCommandError(`unknown command /${name}`)
  throw new RefusedCommandError(
    `/${name} is ambiguous: ${found.map((r) => `${r.spore.name}.${r.command.name}`).join(', ')}`,
  )
}

export function authorise(
  route: Route,
  options: SayOptions,
  roles: Readonly<Record<string, readonly string[]>> | undefined,
): void {
  if (roles === undefined) return
  const held = options.roles ?? ['member']
  const patterns = new Set(held.flatMap((role) => roles[role] ?? []))
  if (!patternsAllow(patterns, guardOf(route.spore.name, route.command.name)))
    throw new RefusedCommandError(
      `${options.person ?? 'alice'} (roles: ${held.join(', ') || 'none'}) may not use ${route.spore.name}.${route.command.name}`,
    )
}
