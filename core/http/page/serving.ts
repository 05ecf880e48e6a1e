import type { Server } from 'bun'

/**
 * Where Bun serves the bundled document itself, without the app's headers: a path nobody can
 * guess, new at each start, read once by the server; people open `/`, which carries the headers.
 */
const BUNDLED = `/_page/${crypto.randomUUID()}/`

export interface PageServing {
  /** The page's document, bundled at the first call and kept. */
  html(): Promise<string>
}

/**
 * The admin page through Bun's HTML import, loaded at the first visit rather than at start: React
 * and the form library cost memory an unbrowsed bot should not pay. Bun serves the bundle's
 * scripts and stylesheet from its routes; the document is read once from there and answered by
 * the app at `/`, so it carries the same security headers (the CSP above all) as every answer.
 */
export function pageServing(options: {
  readonly server: () => Server<undefined>
  readonly url: () => string
  readonly fetch: (request: Request, server: Server<undefined>) => Response | Promise<Response>
}): PageServing {
  let document: Promise<string> | undefined
  const load = async (): Promise<string> => {
    const { default: bundle } = await import('./index.html')
    options.server().reload({ routes: { [BUNDLED]: bundle }, fetch: options.fetch })
    const answer = await fetch(new URL(BUNDLED, options.url()))
    if (!answer.ok) throw new Error(`the admin page did not build: ${answer.status} ${await answer.text()}`)
    return answer.text()
  }
  return {
    html() {
      document ??= load()
      // A failed build is tried again at the next visit, not remembered.
      document.catch(() => {
        document = undefined
      })
      return document
    },
  }
}
