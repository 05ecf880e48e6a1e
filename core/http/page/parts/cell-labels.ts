// On a narrow screen a table's rows are drawn as stacked cards (styles.css), where the column
// headers are out of sight: each cell carries its column's name in `data-label`, drawn beside it.
// One observer on the screen's area labels every table's cells, whichever screen drew them and
// however often a row is redrawn, so no table has to remember to.

/** The visible name of each column; a header read only by screen readers (the buttons) names none. */
function columnNames(table: HTMLTableElement): string[] {
  return [...table.querySelectorAll('thead th')].map((header) =>
    header.querySelector('.sr-only') ? '' : (header.textContent ?? '').trim(),
  )
}

function labelTables(root: HTMLElement): void {
  for (const table of root.querySelectorAll('table')) {
    const names = columnNames(table)
    for (const row of table.querySelectorAll('tbody > tr')) {
      let column = 0
      for (const cell of row.children) {
        const span = Number((cell as HTMLTableCellElement).colSpan) || 1
        const name = span === 1 && cell.tagName === 'TD' ? (names[column] ?? '') : ''
        if (name === '') delete (cell as HTMLElement).dataset.label
        else if ((cell as HTMLElement).dataset.label !== name) (cell as HTMLElement).dataset.label = name
        column += span
      }
    }
  }
}

/** A ref callback for the element screens draw in: labels its tables' cells now and on every change. */
export function labelCells(root: HTMLElement | null): (() => void) | undefined {
  if (root === null) return undefined
  labelTables(root)
  // Only added and removed nodes are watched, so setting a label does not wake the observer again.
  const observer = new MutationObserver(() => labelTables(root))
  observer.observe(root, { childList: true, subtree: true })
  return () => observer.disconnect()
}
