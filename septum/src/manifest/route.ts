import { z } from 'zod'
import type { RouteDeclaration } from '../contract/route.ts'
import { listed, quote, typeProblem } from './wording.ts'

export const ROUTE_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const
export const ROUTE_ACCESS = ['public', 'operator'] as const
/** What a route accepts when its manifest says nothing: a webhook's JSON, with room to spare. */
export const DEFAULT_BODY_LIMIT = 65_536
/** The most any route may accept: the bot reads a body whole, so a larger one is no longer a webhook. */
export const MAX_BODY_LIMIT = 10 * 1024 * 1024

// Literal segments of URL-safe characters, or `:name` params; no wildcards, no empty segments.
const SEGMENT = /^(?::[a-zA-Z][a-zA-Z0-9_]*|[a-zA-Z0-9._~-]+)$/

const pathField = z
  .string({
    error: typeProblem({ missing: 'is missing; every route has a path such as /hook', expected: 'a path' }),
  })
  .superRefine((path, ctx) => {
    if (!path.startsWith('/')) {
      ctx.addIssue({ code: 'custom', message: `${quote(path)} must start with /, such as /hook` })
      return
    }
    if (path === '/') return
    const segments = path.slice(1).split('/')
    const bad = segments.find((segment) => !SEGMENT.test(segment))
    if (bad !== undefined) {
      ctx.addIssue({
        code: 'custom',
        message: `${quote(path)} has the segment ${quote(bad)}: use letters, digits, . _ ~ - or a :param, with no empty segment`,
      })
      return
    }
    const params = segments.filter((segment) => segment.startsWith(':'))
    const twice = params.find((param, index) => params.indexOf(param) !== index)
    if (twice !== undefined)
      ctx.addIssue({ code: 'custom', message: `${quote(twice)} is used twice in ${quote(path)}` })
  })

const routeSchema = z.strictObject(
  {
    method: z.enum(ROUTE_METHODS, {
      error: (issue) =>
        issue.input === undefined
          ? `is missing; it must be one of ${listed(ROUTE_METHODS, 'or')}`
          : `${quote(issue.input)} is not a route method; use ${listed(ROUTE_METHODS, 'or')}`,
    }),
    path: pathField,
    access: z.enum(ROUTE_ACCESS, {
      error: (issue) =>
        issue.input === undefined
          ? 'is missing; a route is public (a webhook, no session) or operator (a signed-in person)'
          : `${quote(issue.input)} is not a route access; use public or operator`,
    }),
    code: z
      .string({ error: typeProblem({ missing: 'is missing', expected: 'a handler name' }) })
      .min(1, { error: 'must not be empty: it names the member of the instance routes that answers' }),
    bodyLimit: z
      .number({ error: typeProblem({ missing: 'is missing', expected: 'a number of bytes' }) })
      .int({ error: 'must be a whole number of bytes' })
      .min(0, { error: 'must not be negative' })
      .max(MAX_BODY_LIMIT, { error: `must be at most ${MAX_BODY_LIMIT} bytes (10 MiB)` })
      .default(DEFAULT_BODY_LIMIT),
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? 'is not a route field; a route carries method, path, access, code and bodyLimit'
        : 'must be a mapping with a method, a path, an access and a code',
  },
)

/** Two routes answering the same method and path shape would shadow each other; the second is refused. */
function shapeOf(route: { method: string; path: string }): string {
  return `${route.method} ${route.path.replace(/:[^/]+/g, ':')}`
}

export const routesField = z
  .array(routeSchema, { error: typeProblem({ missing: 'is missing', expected: 'a list of routes' }) })
  .superRefine((routes, ctx) => {
    const shapes = routes.map(shapeOf)
    const twice = shapes.findIndex((shape, index) => shapes.indexOf(shape) !== index)
    if (twice === -1) return
    const route = routes[twice]!
    ctx.addIssue({
      code: 'custom',
      path: [twice, 'path'],
      message: `${route.method} ${quote(route.path)} is declared twice; each method and path is answered by one route`,
    })
  })
  .transform((routes): RouteDeclaration[] => routes)
