// A list read from the API, shown as a table: its problem with a retry, its loading, its empty
// state saying what to do, and its header. Every screen's lists look and behave the same.
import type { ReactNode } from 'react'
import { useWords } from '../words.ts'
import { Empty, Loading, Problem } from './bits.tsx'
import type { Loaded } from './load.ts'

export function Listing({
  load,
  count,
  empty,
  columns,
  actions = false,
  children,
}: {
  readonly load: Loaded<unknown>
  /** How many rows there are to show. */
  readonly count: number
  readonly empty: { readonly title: string; readonly text?: string }
  /** `column.<name>` keys, in order. */
  readonly columns: readonly string[]
  /** Whether the last column holds each row's buttons (named for screen readers only). */
  readonly actions?: boolean
  readonly children: ReactNode
}) {
  const { t } = useWords()
  return (
    <>
      {load.error ? <Problem text={load.error} retry={load.reload} /> : null}
      {load.loading && !load.data ? <Loading /> : null}
      {load.data && count === 0 ? <Empty title={empty.title}>{empty.text}</Empty> : null}
      {count > 0 ? (
        <table>
          <thead>
            <tr>
              {columns.map((column) => (
                <th scope="col" key={column}>
                  {t(`column.${column}`)}
                </th>
              ))}
              {actions ? (
                <th scope="col">
                  <span className="sr-only">{t('column.actions')}</span>
                </th>
              ) : null}
            </tr>
          </thead>
          <tbody>{children}</tbody>
        </table>
      ) : null}
    </>
  )
}
