// The OpenAPI 3.1 document, written from the same route table that mounts the routes: every
// route appears, with its body's JSON Schema as zod 4 itself renders it.
import { z } from 'zod'
import type { ApiRoute } from './route.ts'

const errorSchema = {
  type: 'object',
  required: ['error', 'key'],
  properties: {
    error: { type: 'string', description: 'The reason, in the reader’s language' },
    key: { type: 'string', description: 'The catalogue key of the reason' },
    field: { type: 'string', description: 'The body field at fault, for a 400' },
  },
} as const

export function openApiDocument(routes: readonly ApiRoute[], version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {}
  for (const entry of routes) {
    const path = entry.path.replace(/:([A-Za-z]+)/g, '{$1}')
    paths[path] ??= {}
    paths[path][entry.method] = operationOf(entry)
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Mycelo operator API', version },
    servers: [{ url: '/api/v1' }],
    components: { schemas: { Error: errorSchema } },
    paths,
  }
}

function operationOf(entry: ApiRoute): Record<string, unknown> {
  const names = [...entry.path.matchAll(/:([A-Za-z]+)/g)].map((match) => match[1]!)
  const error = (description: string) => ({
    description,
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  })
  const content: Record<string, unknown> = { 'application/json': {} }
  for (const media of entry.streams ?? []) content[media] = {}
  return {
    operationId: `${entry.method}${entry.path.replace(/[^A-Za-z]+/g, '_')}`,
    summary: entry.summary,
    ...(entry.command ? { 'x-command-pattern': entry.command } : {}),
    ...(names.length > 0
      ? {
          parameters: names.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })),
        }
      : {}),
    ...(entry.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: bodySchema(entry.body) } },
          },
        }
      : {}),
    responses: {
      '200': { description: 'Done, or what was asked', content },
      ...(entry.body ? { '400': error('The body is not JSON, or a field is wrong: `field` names it') } : {}),
      '403': error('The session’s roles do not allow this command pattern, or the role ceiling refused'),
      '404': error('Something named is unknown'),
      '409': error('Refused in the bot’s present state'),
      '422': error('A value given is refused'),
    },
  }
}

function bodySchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
  }) as Record<string, unknown>
  return rest
}
