// The companion's operations: a backup beside a running bot, a restore onto a fresh folder, and
// the bot's configuration exported and imported as one YAML file.
import { join, resolve } from 'node:path'
import type { Logger, TranslatableRef } from '@mycelo/septum'
import { CORE_TRANSLATIONS, loadDomain } from '../boot/catalogues.ts'
import { ConfigFileError, loadConfig } from '../boot/config.ts'
import { Translator } from '../i18n/translator.ts'
import { writeBackup } from '../operations/backup/backup.ts'
import { restoreBackup } from '../operations/restore/restore.ts'
import type { Answer } from './commands.ts'

export interface OperationContext {
  readonly env: Readonly<Record<string, string | undefined>>
  readonly logger: Logger
}

type Operation = (context: OperationContext, args: readonly string[]) => Promise<Answer>

/** The commands that work on files as well as the database, each opening what it needs itself. */
export const OPERATIONS: Readonly<Record<string, Operation>> = {
  async backup({ env }, [file]) {
    const config = configOf(env)
    if (!config.ok) return { code: 1, text: config.text }
    const locale = config.value.defaultLocale
    const target = resolve(file ?? `mycelo-backup-${new Date().toISOString().replace(/[:.]/g, '-')}.tar.gz`)
    const done = await writeBackup({ config: config.value, file: target })
    if (!done.ok) return refusal(done.refusal, locale)
    const files = Object.keys(done.manifest.files).length
    return {
      code: 0,
      text: say(locale, 'cli.backedUp', { file: target, files, version: done.manifest.mycelo }),
    }
  },
  async restore({ env }, [file]) {
    const done = await restoreBackup({ archive: file!, env })
    if (!done.ok) return refusal(done.refusal, 'en')
    const { config, manifest } = done
    return {
      code: 0,
      text: say(config.defaultLocale, 'cli.restored', {
        database: config.database,
        createdAt: manifest.createdAt,
        version: manifest.mycelo,
      }),
    }
  },
}

function configOf(env: OperationContext['env']) {
  try {
    return { ok: true as const, value: loadConfig({ env }) }
  } catch (error) {
    if (error instanceof ConfigFileError) return { ok: false as const, text: error.message }
    throw error
  }
}

let translator: Translator | undefined
function translate(ref: TranslatableRef, locale: string): string {
  if (translator === undefined) {
    translator = new Translator({ defaultLocale: 'en', logger: SILENT })
    translator.addDomain('core', loadDomain(join(CORE_TRANSLATIONS, 'core')))
    translator.addDomain('common', loadDomain(join(CORE_TRANSLATIONS, 'common')))
  }
  return translator.render(ref, locale)
}

export function refusal(ref: TranslatableRef, locale: string): Answer {
  return { code: 1, text: translate(ref, locale) }
}

export function say(locale: string, key: string, params: Record<string, unknown> = {}): string {
  return translate({ domain: 'core', key, params }, locale)
}

const SILENT: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  child: () => SILENT,
}
