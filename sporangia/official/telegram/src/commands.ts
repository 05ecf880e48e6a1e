import type { BotCommand, LanguageCode } from '@grammyjs/types'
import type { CommandsRead, Logger, PrincipalsRead } from '@mycelo/septum'
import type { Api } from 'grammy'
import { describeFailure } from './api.ts'
import { CHANNEL } from './inbound.ts'
import { worded } from './wording.ts'

/** The languages a menu is set in when the core does not say which its catalogues speak. */
export const MENU_LANGUAGES = ['en', 'fr'] as const

/** The menus everyone sees until their own is set: in private chats, and in groups. */
const EVERYONE = [
  { scope: { type: 'all_private_chats' }, kind: 'dm' },
  { scope: { type: 'all_group_chats' }, kind: 'group' },
] as const

/** A person's menu is set again after this long, so a role granted meanwhile shows up. */
const MENU_TTL_MS = 6 * 60 * 60 * 1000

/** What Telegram accepts as a command name and description. */
const COMMAND_NAME = /^[a-z0-9_]{1,32}$/
const DESCRIPTION_LIMIT = 256

export type MenuMycelium = Partial<CommandsRead & PrincipalsRead>

/**
 * The bot's command menus, described in each language the catalogues speak (setMyCommands with
 * that language_code; Telegram shows each person the one of their app's language, else the one
 * without a code, English where the catalogues have it). Everyone's, set when the bot starts
 * listening: what someone the bot has not met may run, in private chats and in groups. Then each
 * person's, in their private chat: the commands their roles let them run there, set after their
 * first message is handled, when the core knows who they are.
 */
export class CommandMenu {
  readonly #setAt = new Map<number, number>()

  constructor(
    private readonly api: Api,
    private readonly mycelium: () => MenuMycelium,
    private readonly logger: Logger,
  ) {}

  async offerToEveryone(): Promise<void> {
    const { availableToNewcomers } = this.mycelium()
    if (availableToNewcomers === undefined) return
    try {
      const languages = await this.#languages()
      for (const { scope, kind } of EVERYONE) {
        for (const [index, language] of languages.entries()) {
          const commands = menuOf(await availableToNewcomers(language, { channel: CHANNEL, kind }))
          await this.api.setMyCommands(commands, { scope, language_code: language })
          if (index === 0) await this.api.setMyCommands(commands, { scope })
        }
      }
    } catch (error) {
      this.logger.warn(worded('commands_failed', { reason: describeFailure(error) }))
    }
  }

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
      for (const [index, language] of (await this.#languages()).entries()) {
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

  /**
   * The catalogues' languages Telegram can name (a two-letter code), English first where there is
   * one: the first is also the menu of anyone whose app speaks another language.
   */
  async #languages(): Promise<readonly LanguageCode[]> {
    const known = (await this.mycelium().locales?.()) ?? MENU_LANGUAGES
    const codes = [...new Set(known.filter(isLanguageCode))]
    return codes.includes('en') ? ['en', ...codes.filter((code) => code !== 'en')] : codes
  }
}

/** A code Telegram takes as a language_code: two lowercase letters (ISO 639-1). */
function isLanguageCode(locale: string): locale is LanguageCode {
  return /^[a-z]{2}$/.test(locale)
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
