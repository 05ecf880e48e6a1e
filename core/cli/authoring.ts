// The companion's commands for spore authors: they work on a spore's folder, never on the bot's data.
import { writeSync } from 'node:fs'
import { isAbsolute, join, resolve } from 'node:path'
import type { TranslatableRef } from '@mycelo/septum'
import { scaffoldSpore } from '../authoring/scaffold.ts'
import { coreCatalogues, SILENT } from '../boot/catalogues.ts'
import type { Logging } from '../boot/log.ts'
import { Translator } from '../i18n/translator.ts'
import type { Answer } from './answer.ts'

const CHECKOUT_SPORES = join(import.meta.dir, '..', '..', 'spores')
const STDERR = 2

/** The core's words and the common ones (a reload's refusal is worded there). */
function words(): (ref: TranslatableRef) => string {
  const translator = new Translator({ defaultLocale: 'en', logger: SILENT })
  const { core, common } = coreCatalogues()
  translator.addDomain('core', core)
  translator.addDomain('common', common)
  return (ref) => translator.render(ref, 'en')
}

export interface AuthoringContext {
  readonly env: Readonly<Record<string, string | undefined>>
  readonly logging: Pick<Logging, 'logger' | 'setSecrets'>
}

/** Where the person typed the command: a relative folder is theirs, not the checkout's. */
function typedFrom(env: AuthoringContext['env'], folder: string): string {
  return isAbsolute(folder) ? folder : resolve(env.INIT_CWD ?? process.cwd(), folder)
}

type Authoring = (context: AuthoringContext, args: readonly string[]) => Promise<Answer>

export const AUTHORING: Readonly<Record<string, Authoring>> = {
  async new({ env }, [kind, name, , dir]) {
    const say = words()
    const folder = typedFrom(env, dir ?? join('spores', name!))
    const done = scaffoldSpore({ kind: kind!, name: name!, folder })
    if (!done.ok) return { code: 1, text: say({ domain: 'core', key: done.key, params: done.params }) }
    const params = { kind, name, folder, count: done.files.length }
    return { code: 0, text: say({ domain: 'core', key: 'cli.newWritten', params }) }
  },
  async dev({ env, logging }, [folder]) {
    // Loaded only here: it brings the whole bot, which no other command of the companion needs.
    const { runDev } = await import('../authoring/dev.ts')
    const say = words()
    const stopped = new Promise<void>((done) => {
      process.once('SIGINT', done)
      process.once('SIGTERM', done)
    })
    const code = await runDev({
      folder: typedFrom(env, folder!),
      checkoutSpores: CHECKOUT_SPORES,
      logging,
      env,
      tell: (ref) => void writeSync(STDERR, `${say(ref)}\n`),
      stopped,
    })
    return { code: code === 0 ? 0 : 1, text: '' }
  },
}
