/** This process's part of every delivery id: random, so two runs never hand out the same one. */
const RUN_PREFIX = Array.from(crypto.getRandomValues(new Uint8Array(8)), (byte) =>
  (byte % 36).toString(36),
).join('')
/** Every pair of base-36 digits, so an id's last two are looked up rather than converted. */
const PAIRS = Array.from({ length: 36 * 36 }, (_, n) => n.toString(36).padStart(2, '0'))
/** The count's upper digits: four, then two more for every time they ran out. */
const BLOCKS = 36 ** 4
let block = 0
let rounds = 0
let head = headOf()
let low = -1

function headOf(): string {
  return RUN_PREFIX + rounds.toString(36).padStart(2, '0') + block.toString(36).padStart(4, '0')
}

/**
 * 16 letters and digits, unique across runs: the run's random part, then a count (no draw per
 * message). Converting the count to base 36 for every message was a measurable part of a reply's
 * path, so only its last two digits change per id, read from a table; the rest is remade once per
 * 1,296 ids.
 */
export function newDeliveryId(): string {
  low += 1
  if (low === PAIRS.length) {
    low = 0
    block += 1
    if (block === BLOCKS) {
      block = 0
      rounds += 1
    }
    head = headOf()
  }
  return head + PAIRS[low]!
}
