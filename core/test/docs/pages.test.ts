// The README stays short and sends the reader to docs/; every page there opens with a contents list
// that names each of its sections and links to each by the anchor its heading really has.
import { describe, expect, it } from 'bun:test'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { ROOT } from '../boot/process.ts'

const PAGES = readdirSync(join(ROOT, 'docs'))
  .filter((name) => name.endsWith('.md'))
  .map((name) => `docs/${name}`)

/** The anchor a Markdown renderer gives a heading: lower case, punctuation dropped, spaces as dashes. */
function anchorOf(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .replace(/\s/g, '-')
}

/** Headings outside fenced code blocks, with their level. */
function headings(text: string): { level: number; text: string }[] {
  const found: { level: number; text: string }[] = []
  let fenced = false
  for (const line of text.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced
    const heading = fenced ? null : /^(#{1,6}) (.+)$/.exec(line)
    if (heading) found.push({ level: heading[1]!.length, text: heading[2]!.trim() })
  }
  return found
}

describe('the README and docs/', () => {
  it('keep the README under 15 KB, linking every page of docs/', () => {
    expect(statSync(join(ROOT, 'README.md')).size).toBeLessThan(15 * 1024)
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
    expect(PAGES.length).toBeGreaterThan(5)
    expect(PAGES.filter((page) => !readme.includes(`](${page}`))).toEqual([])
  })

  for (const page of PAGES) {
    it(`open ${page} with a contents list of its sections`, () => {
      const text = readFileSync(join(ROOT, page), 'utf8')
      const sections = headings(text).filter((heading) => heading.level === 2)
      expect(sections[0]?.text).toBe('Contents')
      const after = text.slice(text.indexOf('## Contents') + '## Contents'.length)
      const list = after.slice(0, after.search(/\n## /))
      const listed = [...list.matchAll(/^\s*(?:-|\d+\.) \[[^\]]+\]\(#([^)]+)\)/gm)].map((link) => link[1])
      const anchors = new Set(headings(text).map((heading) => anchorOf(heading.text)))
      expect(listed.filter((anchor) => !anchors.has(anchor!))).toEqual([])
      // Every section is listed (a list may name its subsections too).
      const unlisted = sections.slice(1).filter((section) => !listed.includes(anchorOf(section.text)))
      expect(unlisted.map((section) => section.text)).toEqual([])
    })
  }
})
