// A spore's settings form validated in the browser without compiling code there: the page's CSP
// allows no eval, so the schema's ajv validators are compiled here into a small script module
// (ajv's standalone code, bundled by Bun) that the page imports from this origin.

import { createHash } from 'node:crypto'
import { pluginsConfigure } from '../../mycelium/configure.ts'
import { guardOf } from '../../mycelium/guards.ts'
import { notFound, refusalResponse } from './answer.ts'
import { type ApiDeps, type ApiRoute, route } from './route.ts'

const SCRIPT = 'text/javascript'
/** Compiled modules kept, newest last; a schema changes only when its spore is upgraded. */
const KEPT = 32

export function formValidatorRoutes({ runtime }: ApiDeps): ApiRoute[] {
  const configure = pluginsConfigure(runtime, runtime.plugins)
  const compiled = new Map<string, Promise<string>>()
  const moduleFor = (schema: unknown): Promise<string> => {
    const id = createHash('sha256').update(JSON.stringify(schema)).digest('hex')
    let found = compiled.get(id)
    if (found === undefined) {
      found = compileValidators(schema)
      compiled.set(id, found)
      // A failed build is not remembered: the next request tries again.
      found.catch(() => compiled.delete(id))
      if (compiled.size > KEPT) compiled.delete(compiled.keys().next().value as string)
    }
    return found
  }
  return [
    route({
      method: 'get',
      path: '/spores/:name/form/validators.js',
      summary: "The settings form's validators as a script module, for a page that may not compile code",
      guard: guardOf('plugins.configure', 'formSchema'),
      streams: [SCRIPT],
      async handle({ c, param }) {
        const name = param('name')
        if (!runtime.germination.byName.has(name)) {
          return notFound(runtime, c, 'api.sporeUnknown', { spore: name })
        }
        const form = await configure.formSchema(name)
        if (!form.available) {
          return refusalResponse(
            runtime,
            c,
            { domain: 'core', key: 'api.formUnavailable', params: { spore: name, reason: form.reason } },
            409,
          )
        }
        const text = await moduleFor(form.schema)
        return c.body(text, 200, {
          'content-type': `${SCRIPT}; charset=utf-8`,
          'cache-control': 'private, no-cache',
        })
      },
    }),
  ]
}

/** ajv's standalone validators for `schema`, as one ES module with no import left to resolve. */
async function compileValidators(schema: unknown): Promise<string> {
  // Loaded at the first form opened: ajv and the bundler cost nothing until a page asks.
  const [{ compileSchemaValidatorsCode }, { default: Ajv2020 }] = await Promise.all([
    import('@rjsf/validator-ajv8/compileSchemaValidators'),
    import('ajv/dist/2020.js'),
  ])
  // zod publishes draft 2020-12 schemas; ajv reads that draft through its own class for it.
  const code = compileSchemaValidatorsCode(schema as Parameters<typeof compileSchemaValidatorsCode>[0], {
    AjvClass: Ajv2020 as never,
  })
  // The standalone code requires ajv's runtime helpers by name; point them at the files themselves.
  const from = Bun.fileURLToPath(import.meta.resolve('@rjsf/validator-ajv8'))
  const resolved = code.replace(
    /require\("([^"]+)"\)/g,
    (_whole, specifier: string) => `require(${JSON.stringify(Bun.resolveSync(specifier, from))})`,
  )
  const entry = '/mycelo-form/validators.js'
  const built = await Bun.build({
    entrypoints: [entry],
    files: { [entry]: resolved },
    target: 'browser',
    format: 'esm',
    minify: true,
  })
  const [output] = built.outputs
  if (!built.success || output === undefined) {
    throw new Error(`the form's validators did not build: ${built.logs.map(String).join('; ')}`)
  }
  return output.text()
}
