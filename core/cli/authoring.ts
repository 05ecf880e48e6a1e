// The companion's commands for spore authors: they work on a spore's folder, never on the bot's data.
import { isAbsolute, join, resolve } from 'node:path'
import { scaffoldSpore } from '../authoring/scaffold.ts'
import { coreCatalogues, coreText } from '../boot/catalogues.ts'
import type { Answer } from './answer.ts'

const text = coreText(coreCatalogues().core, 'en')

export interface AuthoringContext {
  readonly env: Readonly<Record<string, string | undefined>>
}

/** Where the person typed the command: a relative folder is theirs, not the checkout's. */
function typedFrom(env: AuthoringContext['env'], folder: string): string {
  return isAbsolute(folder) ? folder : resolve(env.INIT_CWD ?? process.cwd(), folder)
}

export const AUTHORING: Readonly<
  Record<string, (context: AuthoringContext, args: readonly string[]) => Promise<Answer>>
> = {
  async new({ env }, [kind, name, , dir]) {
    const folder = typedFrom(env, dir ?? join('spores', name!))
    const done = scaffoldSpore({ kind: kind!, name: name!, folder })
    if (!done.ok) return { code: 1, text: text(done.key, done.params) }
    return { code: 0, text: text('cli.newWritten', { kind, name, folder, count: done.files.length }) }
  },
}
