// The companion's operations: a backup beside a running bot, a restore onto a fresh folder, and
// the bot's configuration exported and imported as one YAML file.
import { readFileSync, statSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import type { Logger, TranslatableRef } from '@mycelo/septum'
import { coreCatalogues, SILENT } from '../boot/catalogues.ts'
import { ConfigFileError, loadConfig } from '../boot/config.ts'
import { Translator } from '../i18n/translator.ts'
import { writeBackup } from '../operations/backup/backup.ts'
import { IMPORT_BOUNDS } from '../operations/config-as-code/bounds.ts'
import { exportConfiguration } from '../operations/config-as-code/export.ts'
import { importConfiguration, importTooLarge } from '../operations/config-as-code/import.ts'
import { operationRefused } from '../operations/refusal.ts'
import { restoreBackup } from '../operations/restore/restore.ts'
import { PRIVATE_FILE, privateFile } from '../store/private-files.ts'
import type { Answer } from './answer.ts'
import { type CliRuntime, openRuntime } from './runtime.ts'

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
  async restore({ env }, args) {
    const file = args.find((arg) => arg !== '--replace-config')
    const done = await restoreBackup({
      archive: file!,
      env,
      replaceConfig: args.includes('--replace-config'),
    })
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
  async export({ env, logger }, args) {
    const secrets = args.includes('--secrets')
    // Spores' stored data is optional: it may be large, and personal.
    const data = args.includes('--data')
    const [file] = args.filter((arg) => arg !== '--secrets' && arg !== '--data')
    return withRuntime({ env, logger, write: false }, async (cli) => {
      const text = await exportConfiguration(cli.runtime, { secrets, data })
      if (file === undefined) return { code: 0, text }
      // With secrets or stored data the file is the operator's alone, even one written over.
      if (secrets || data) privateFile(resolve(file))
      writeFileSync(resolve(file), text, { mode: secrets || data ? PRIVATE_FILE : 0o644 })
      return { code: 0, text: say(cli.config.defaultLocale, 'cli.exported', { file }) }
    })
  },
  async import({ env, logger }, args) {
    const apply = args.includes('--apply')
    const [file] = args.filter((arg) => arg !== '--apply')
    const config = configOf(env)
    if (!config.ok) return { code: 1, text: config.text }
    const locale = config.value.defaultLocale
    let text: string
    try {
      // A file over the bound is refused by its size, before a byte of it is read.
      const { size } = statSync(resolve(file!))
      if (size > IMPORT_BOUNDS.bytes) return refusal(importTooLarge(size).refusal, locale)
      text = readFileSync(resolve(file!), 'utf8')
    } catch (error) {
      return refusal(
        operationRefused('importUnreadable', { reason: (error as Error).message }).refusal,
        locale,
      )
    }
    // Dry run or not, the changes run inside one transaction; only an applied, unrefused import commits.
    return withRuntime({ env, logger, write: apply }, async (cli) => {
      const sqlite = cli.runtime.store.db.$client
      sqlite.run('BEGIN IMMEDIATE')
      let committed = false
      try {
        const done = await importConfiguration(cli.runtime, text)
        if (!done.ok) return refusal(done.refusal, locale)
        if (done.changes.length === 0) return { code: 0, text: say(locale, 'cli.noChange') }
        if (apply) {
          sqlite.run('COMMIT')
          committed = true
        }
        const head = say(locale, apply ? 'cli.changed' : 'cli.wouldChange', { count: done.changes.length })
        return { code: 0, text: [head, ...done.changes].join('\n') }
      } finally {
        if (!committed) sqlite.run('ROLLBACK')
      }
    })
  },
}

/** The core opened as the companion opens it: a write holds the database, a read works on a copy. */
async function withRuntime(
  context: OperationContext & { readonly write: boolean },
  work: (cli: CliRuntime) => Promise<Answer>,
): Promise<Answer> {
  const opened = await openRuntime({
    write: context.write,
    logger: context.logger,
    env: context.env,
    held: (reason, config) => say(config.defaultLocale, 'cli.held', { reason }),
  })
  if (!opened.ok) return { code: 1, text: opened.text }
  try {
    return await work(opened.value)
  } finally {
    opened.value.close()
  }
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
    translator.addDomain('core', coreCatalogues().core)
    translator.addDomain('common', coreCatalogues().common)
  }
  return translator.render(ref, locale)
}

export function refusal(ref: TranslatableRef, locale: string): Answer {
  return { code: 1, text: translate(ref, locale) }
}

export function say(locale: string, key: string, params: Record<string, unknown> = {}): string {
  return translate({ domain: 'core', key, params }, locale)
}
