// One spelling of "built in" wherever people read it (chat, CLI, page, API summaries, docs): the
// admin spore said "(builtin)", the page "built-in", the CLI "(built in)".
import { describe, expect, it } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'yaml'
import { ROOT } from '../boot/process.ts'

/** Every string a catalogue shows, with the ICU argument names (such as {builtin, select, …}) left out. */
function shownTexts(value: unknown): string[] {
  if (typeof value === 'string') return [value.replace(/\{\s*\w+\s*,/g, '{')]
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(shownTexts)
  return []
}

const catalogueFolders = [
  'translations/core',
  'translations/common',
  'sporangia/translations',
  ...readdirSync(join(ROOT, 'spores')).map((name) => `spores/${name}/translations`),
  ...readdirSync(join(ROOT, 'sporangia', 'official'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => `sporangia/official/${entry.name}/translations`),
]

function catalogues(): { file: string; texts: string[] }[] {
  return catalogueFolders.flatMap((folder) => {
    let files: string[]
    try {
      files = readdirSync(join(ROOT, folder)).filter((name) => name.endsWith('.yaml'))
    } catch {
      return []
    }
    return files.map((name) => ({
      file: `${folder}/${name}`,
      texts: shownTexts(parse(readFileSync(join(ROOT, folder, name), 'utf8'))),
    }))
  })
}

const OTHER_SPELLING = /\bbuiltin\b|\bbuilt-in\b/i

describe('"built in"', () => {
  it('is spelled one way in every catalogue', () => {
    const found = catalogues()
    expect(found.length).toBeGreaterThan(10)
    const misspelled = found.flatMap(({ file, texts }) =>
      texts.filter((text) => OTHER_SPELLING.test(text)).map((text) => `${file}: ${text}`),
    )
    expect(misspelled).toEqual([])
  })

  it('is spelled one way in the README, docs/ and the API’s descriptions', () => {
    const pages = [
      'README.md',
      ...readdirSync(join(ROOT, 'docs'))
        .filter((n) => n.endsWith('.md'))
        .map((n) => `docs/${n}`),
    ]
    const api = readdirSync(join(ROOT, 'core', 'http', 'api')).map((name) => `core/http/api/${name}`)
    const misspelled = [...pages, ...api].filter((file) => {
      // Code names stay as they are (a `builtin` flag); what a person reads is checked.
      const text = readFileSync(join(ROOT, file), 'utf8').replace(/`[^`]*`/g, '')
      const words = file.endsWith('.ts')
        ? [...text.matchAll(/(?:summary|description): '([^']*)'/g)].map((m) => m[1])
        : [text]
      return words.some((word) => OTHER_SPELLING.test(word ?? ''))
    })
    expect(misspelled).toEqual([])
  })
})
