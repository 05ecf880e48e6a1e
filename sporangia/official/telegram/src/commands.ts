import type { BotCommand } from '@grammyjs/types'
import type { CommandsRead, Logger, PrincipalsRead } from '@mycelo/septum'
import type { Api } from 'grammy'
import { describeFailure } from './api.ts'
import { CHANNEL } from './inbound.ts'
import { worded } from './wording.ts'

/** The languages the bot's catalogues speak; Telegram shows each person the menu in their app's language. */
export const MENU_LANGUAGES = ['en', 'fr'] as const

/** A person's menu is set again after this long, so a role granted meanwhile shows up. */
const MENU_TTL_MS = 6 * 60 * 60 * 1000

/** What Telegram accepts as a command name and description. */
const COMMAND_NAME = /^[a-z0-9_]{1,32}$/
const DESCRIPTION_LIMIT = 256

export type MenuMycelium = Partial<CommandsRead & PrincipalsRead>

/**
 * Each person's command menu in their private chat with the bot: the commands their roles let them
 * run in a direct message on Telegram, described in each catalogue language (setMyCommands, scoped
 * to that chat). Set after their first message is handled, when the core knows who they are.
 */
export class CommandMenu {
  readonly #setAt = new Map<number, number>()

  constructor(
    private readonly api: Api,
    private readonly mycelium: () => MenuMycelium,
    private readonly logger: Logger,
  ) {}

  async offer(chatId: number, userId: string): Promise<void> {
    const last = this.#setAt.get(chatId)
    if (last !== undefined && Date.now() - last < MENU_TTL_MS) return
    const { available, findByIdentity } = this.mycelium()
    if (available === undefined || findByIdentity === undefined) return
    this.#setAt.set(chatId, Date.now())
    try {
      const principal = await findByIdentity(CHANNEL, userId)
      if (principal === null) return
      const scope = { type: 'chat' as const, chat_id: chatId }
      for (const [index, language] of MENU_LANGUAGES.entries()) {
        const listed = await available(principal, language, { channel: CHANNEL, kind: 'dm' })
        const commands = menuOf(listed)
        await this.api.setMyCommands(commands, { scope, language_code: language })
        // Everyone whose app speaks another language gets the first one.
        if (index === 0) await this.api.setMyCommands(commands, { scope })
      }
    } catch (error) {
      this.#setAt.delete(chatId)
      this.logger.warn(worded('commands_failed', { reason: describeFailure(error) }), { chat: chatId })
    }
  }
}

/** The commands Telegram can show: valid names, once each, descriptions cut to its limit. */
export function menuOf(listed: readonly { name: string; description: string }[]): BotCommand[] {
  const menu = new Map<string, BotCommand>()
  for (const { name, description } of listed) {
    if (!COMMAND_NAME.test(name) || menu.has(name)) continue
    const said = description.trim() || name
    menu.set(name, {
      command: name,
      description: said.length > DESCRIPTION_LIMIT ? `${said.slice(0, DESCRIPTION_LIMIT - 1)}…` : said,
    })
  }
  return [...menu.values()]
}
