// The configuration file's shape: what `export` writes and `import` accepts. Validated whole
// before anything is compared or applied; an error names the path it is at.
import { z } from 'zod'

const settingValue = z.json()
const identity = z.string().regex(/^[^:\s]+:\S+$/, 'expected channel:userId')
const kinds = z.array(z.enum(['dm', 'group'])).min(1)

export const configDocumentSchema = z.strictObject({
  /** Each plugin named: whether it is enabled and its stored settings (the whole list). */
  plugins: z
    .record(
      z.string(),
      z.strictObject({ enabled: z.boolean(), settings: z.record(z.string(), settingValue).default({}) }),
    )
    .default({}),
  /** Each role named, with its command patterns. */
  roles: z.record(z.string(), z.array(z.string())).default({}),
  /** For each role named, everyone who holds it, by channel:userId. */
  grants: z.record(z.string(), z.array(identity)).default({}),
  /** Every context rule: a qualified command and where it may run. */
  rules: z.record(z.string(), kinds).default({}),
  /** Every confined inhibitor and the channels it judges. */
  confinement: z.record(z.string(), z.array(z.string()).min(1)).default({}),
  /** Every broadcast target. */
  broadcast: z.array(z.strictObject({ channel: z.string(), conversation: z.string() })).default([]),
  /** Each source named by its id. */
  sources: z
    .record(
      z.string(),
      z.strictObject({
        label: z.string(),
        url: z.string(),
        enabled: z.boolean(),
        token: z.string().optional(),
        publisherKey: z.string().optional(),
      }),
    )
    .default({}),
  /**
   * Optional, written by `export --data`: each spore's stored entries (septum 1.1 storage), by key.
   * For a spore listed they are the whole list; a spore left out is left alone.
   */
  data: z.record(z.string(), z.record(z.string(), z.json())).optional(),
})

export type ConfigDocument = z.output<typeof configDocumentSchema>

export const DOCUMENT_HEADER = [
  ' The configuration of a Mycelo bot, as `bun run mycelo export` wrote it.',
  ' Edit it, then `bun run mycelo import <file>` shows what would change, and',
  ' `bun run mycelo import <file> --apply` changes it, through the same rules as chat.',
  ' Secrets and tokens read •••• unless exported with --secrets; •••• keeps the stored value.',
  ' Plugins, roles and sources left out are left alone; for those listed, settings, patterns and',
  ' holders are the whole list. Grants, rules, confinement and broadcast are the whole list too.',
  ' data (with --data) holds what spores stored; for a spore listed, its entries are the whole list.',
].join('\n')
