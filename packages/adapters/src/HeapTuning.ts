/**
 * How far V8 lets the JavaScript heap grow past what the last full collection left live before it
 * runs the next one. V8's own factor adapts between 1.1 and 4 with how fast its collections are;
 * on this service (many short-lived objects per request and per payout) it chooses near 4, so a
 * live set of ~80 MiB was left to grow to 320 MiB and more of garbage between full collections
 * (bench:payouts on PGlite, `node --trace-gc`). With 50%, the next full collection starts at 1.5 ×
 * the live set: at 3,000 due payouts on PGlite, heap 150 instead of 323 MiB at its peak, RSS 625
 * instead of 810 MiB, for the same CPU per payout (20.2 against 20.4 ms; a full collection of a
 * small live set takes 5 to 12 ms, about one every 2 s there). See README, Benchmarks.
 *
 * Set from code rather than on node's command line so that every way of starting a process gets
 * it (`npm start`, `node build/start.mjs` in a container, the benchmarks that run the service in
 * their own process): runService calls it first. V8 reads the flag each time it sizes the heap
 * after a collection, so setting it at start-up is enough.
 */
import { setFlagsFromString } from "node:v8"

export const HEAP_GROWING_PERCENT = 50

export const tuneHeap = () => setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`)
