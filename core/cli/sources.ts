// The companion's sporangium commands: sources, what they offer, and installs, each through the
// sources.manage functions chat uses (as Outcomes), so both surfaces refuse alike.
import { writeSync } from 'node:fs'
import {
  type OfferedSpore,
  type OfferedStrain,
  SEPTUM_VERSION,
  type SourceInfo,
  type SourcePatch,
  septumIncompatibility,
} from '@mycelo/septum'
import { pluginsRead } from '../mycelium/plugins.ts'
import { sourceManageOutcomes } from '../mycelium/sources.ts'
import { type Answer, type Run, refusal, say } from './answer.ts'
import type { CliRuntime } from './runtime.ts'

const STDERR = 2
const yesNo = (flag: boolean) => (flag ? 'yes' : 'no')

/** What `source-set` changes, by the word typed; `-` as the token removes it. */
const FIELDS: Readonly<Record<string, (value: string) => SourcePatch>> = {
  label: (label) => ({ label }),
  url: (url) => ({ url }),
  token: (token) => ({ token: token === '-' ? '' : token }),
  key: (publisherKey) => ({ publisherKey }),
}

export const SOURCE_RUNS: Readonly<Record<string, Run>> = {
  async sources(cli) {
    const lines = (await manage(cli).listSources()).map((source) => sourceLine(cli, source))
    return { code: 0, text: lines.length === 0 ? say(cli, 'cli.noSources') : lines.join('\n') }
  },
  async 'source-add'(cli, [url, label, publisherKey]) {
    const added = await manage(cli).addSource({
      url: url!,
      label: label!,
      ...(publisherKey ? { publisherKey } : {}),
    })
    if (!added.ok) return refusal(cli, added.refusal)
    return { code: 0, text: say(cli, 'cli.sourceAdded', { line: sourceLine(cli, added.value) }) }
  },
  async 'source-set'(cli, [id, field, value]) {
    const patch = FIELDS[field!.toLowerCase()]
    if (patch === undefined) return { code: 1, text: say(cli, 'cli.sourceField', { field }) }
    const updated = await manage(cli).updateSource(id!, patch(value!))
    if (!updated.ok) return refusal(cli, updated.refusal)
    return { code: 0, text: say(cli, 'cli.sourceChanged', { line: sourceLine(cli, updated.value) }) }
  },
  'source-enable': (cli, [id]) => toggle(cli, id!, true),
  'source-disable': (cli, [id]) => toggle(cli, id!, false),
  async 'source-delete'(cli, [id]) {
    const deleted = await manage(cli).deleteSource(id!)
    if (!deleted.ok) return refusal(cli, deleted.refusal)
    return { code: 0, text: say(cli, 'cli.sourceDeleted', { source: id }) }
  },
  async offered(cli, [source, ...search]) {
    const offered = await manage(cli).offered(source!)
    if (!offered.ok) return refusal(cli, offered.refusal)
    const words = search.join(' ').toLowerCase().split(/\s+/).filter(Boolean)
    const found = offered.value.filter((spore) => {
      const text = `${spore.name} ${spore.description ?? ''}`.toLowerCase()
      return words.every((word) => text.includes(word))
    })
    if (found.length === 0) return { code: 0, text: say(cli, 'cli.offeredNone', { source }) }
    const title = say(cli, 'cli.offeredTitle', { source, count: found.length, septum: SEPTUM_VERSION })
    return { code: 0, text: [title, ...found.flatMap((spore) => offeredLines(cli, spore))].join('\n') }
  },
  async install(cli, [source, spore, strain]) {
    const inoculated = await manage(cli).inoculate({
      source: source!,
      spore: spore!,
      ...(strain ? { strain } : {}),
      onProgress: progress(cli, spore!),
    })
    if (!inoculated.ok) return refusal(cli, inoculated.refusal)
    const { value } = inoculated
    const lines = [say(cli, 'cli.installed', { spore, strain: value.strain, source: value.source })]
    const plugin = pluginsRead(cli.runtime)
      .listPlugins()
      .find((candidate) => candidate.name === spore)
    // The install row's reason: what it is, what it requires, every scope it requests.
    if (plugin?.reason) lines.push(plugin.reason)
    lines.push(plugin?.enabled ? say(cli, 'cli.installRuns') : say(cli, 'cli.installEnable', { spore }))
    return { code: 0, text: lines.join('\n') }
  },
  async upgrade(cli, [spore]) {
    const from = pluginsRead(cli.runtime)
      .listPlugins()
      .find((candidate) => candidate.name === spore)?.strain
    const upgraded = await manage(cli).upgrade(spore!, progress(cli, spore!))
    if (!upgraded.ok) return refusal(cli, upgraded.refusal)
    return {
      code: 0,
      text: say(cli, 'cli.upgraded', { spore, from: from ?? '?', strain: upgraded.value.strain }),
    }
  },
  async rollback(cli, [spore]) {
    const rolled = await manage(cli).rollBack(spore!)
    if (!rolled.ok) return refusal(cli, rolled.refusal)
    const { strain, source } = rolled.value
    return { code: 0, text: say(cli, 'cli.rolledBack', { spore, strain, source }) }
  },
  async uninstall(cli, [spore, flag]) {
    const keepData = flag === undefined ? undefined : flag === '--keep-data'
    const removed = await manage(cli).uninstall(spore!, keepData === undefined ? {} : { keepData })
    if (!removed.ok) return refusal(cli, removed.refusal)
    return {
      code: 0,
      text: say(cli, keepData === false ? 'cli.uninstalledDataDeleted' : 'cli.uninstalled', { spore }),
    }
  },
}

const manage = (cli: CliRuntime) => sourceManageOutcomes(cli.runtime)

async function toggle(cli: CliRuntime, id: string, enabled: boolean): Promise<Answer> {
  const updated = await manage(cli).updateSource(id, { enabled })
  if (!updated.ok) return refusal(cli, updated.refusal)
  return { code: 0, text: say(cli, enabled ? 'cli.sourceEnabled' : 'cli.sourceDisabled', { source: id }) }
}

function sourceLine(cli: CliRuntime, source: SourceInfo): string {
  return say(cli, 'cli.sourceLine', {
    id: source.id,
    label: source.label,
    url: source.url,
    trust: source.trust,
    enabled: yesNo(source.enabled),
    // Only ever the mask: the core never reads a token back.
    token: source.token ?? '',
    tokened: yesNo(source.token !== undefined),
    key: source.publisherKey ?? '',
    keyed: yesNo(source.publisherKey !== undefined),
  })
}

const admitted = (strain: OfferedStrain) => septumIncompatibility(strain.septum, SEPTUM_VERSION) === undefined

function offeredLines(cli: CliRuntime, spore: OfferedSpore): string[] {
  const head = say(cli, 'cli.offeredSpore', {
    name: spore.name,
    kind: say(cli, 'report.kind', { kind: spore.kind }),
    description: spore.description ?? '',
    described: yesNo(spore.description !== undefined),
  })
  const strains = spore.strains.map((strain) =>
    say(cli, 'cli.offeredStrain', {
      strain: strain.strain,
      septum: strain.septum,
      published: strain.published ?? '',
      dated: yesNo(strain.published !== undefined),
      admitted: yesNo(admitted(strain)),
    }),
  )
  return [head, ...strains]
}

/** Download progress on standard error, a line per tenth (or per MiB when the size is unknown). */
function progress(cli: CliRuntime, spore: string) {
  let shown = -1
  return (received: number, total: number | undefined) => {
    const step = total ? Math.floor((received / total) * 10) : Math.floor(received / 1_048_576)
    if (step === shown) return
    shown = step
    const line = total
      ? say(cli, 'cli.progress', { spore, received, total })
      : say(cli, 'cli.progressUnknown', { spore, received })
    writeSync(STDERR, `${line}\n`)
  }
}
