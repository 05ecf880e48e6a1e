// What the official channels' fakes share: the payloads a fake actually put on the wire, written
// out as literals that must satisfy the protocol's published types, and compiled with tsc. A field
// renamed, mistyped, missing or unknown to the types fails the compile, with tsc's own words.
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

const CHECKOUT = join(import.meta.dir, '..', '..', '..')
const TSC = join(CHECKOUT, 'node_modules', 'typescript', 'bin', 'tsc')

/** One payload and the published type it must satisfy, as TypeScript names it in `imports`. */
export interface TypedPayload {
  readonly type: string
  readonly value: unknown
  /** Where it came from, shown beside tsc's complaint (a method, an endpoint). */
  readonly from: string
}

export interface Typechecked {
  readonly ok: boolean
  /** tsc's output, each line naming the payload's origin. */
  readonly output: string
  /** How many payloads were checked. */
  readonly checked: number
}

/**
 * Compiles `payloads` as `<value> satisfies <type>` under the checkout's node_modules, so the
 * types resolve as the spore's own code resolves them; `imports` brings the types in.
 */
export function typecheckPayloads(imports: string, payloads: readonly TypedPayload[]): Typechecked {
  const root = join(CHECKOUT, '.test-tmp')
  mkdirSync(root, { recursive: true })
  const dir = mkdtempSync(join(root, 'wire-types-'))
  try {
    const lines = [...imports.split('\n'), '', 'export const payloads = [']
    const origins: string[] = []
    for (const payload of payloads) {
      origins[lines.length + 2] = payload.from
      lines.push(`  // ${payload.from}`, `  (${literal(payload.value)}) satisfies ${payload.type},`)
    }
    lines.push(']', '')
    writeFileSync(join(dir, 'payloads.ts'), lines.join('\n'))
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2023',
          lib: ['ES2023', 'DOM'],
          module: 'Preserve',
          moduleResolution: 'bundler',
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: [],
        },
        files: ['payloads.ts'],
      }),
    )
    const result = spawnSync(process.execPath, [TSC, '-p', 'tsconfig.json'], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
    })
    const said = `${result.stdout ?? ''}${result.stderr ?? ''}`.replace(
      /payloads\.ts\((\d+),(\d+)\)/g,
      (whole, line: string) => `${whole} [${origins[Number(line)] ?? 'imports'}]`,
    )
    return { ok: result.status === 0, output: said, checked: payloads.length }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * A value as a TypeScript literal: JSON, except that a property set to undefined is written out —
 * the way a test marks what JSON cannot carry but a published type requires to be absent.
 */
export function literal(value: unknown): string {
  if (value === undefined) return 'undefined'
  if (Array.isArray(value)) return `[${value.map(literal).join(',')}]`
  if (value !== null && typeof value === 'object') {
    const fields = Object.entries(value).map(([key, field]) => `${JSON.stringify(key)}:${literal(field)}`)
    return `{${fields.join(',')}}`
  }
  return JSON.stringify(value)
}
