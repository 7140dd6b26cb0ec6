/**
 * `npm run start:http`: the HTTP API alone (production runs the scheduler as its own process).
 * The layers are `runHttp` in Services.ts.
 *
 * start:http gives node `--max-semi-space-size=32`: V8's young generation takes 32 MiB per
 * semi-space instead of 16 before a scavenge. A scavenge costs in proportion to what survives
 * it (the requests in flight), not to the garbage, so they come about half as often for much the
 * same pause: under bench:api, 126 scavenges and 573 ms of pauses against 86 and 410 ms for more
 * requests (0.24 against 0.12 ms of pause per request), for ~20 MiB more resident memory. It
 * has to be on node's command line: V8 sizes the young generation when it sets up the heap, and
 * v8.setFlagsFromString at start-up changed nothing (the same count of scavenges). `npm start`
 * (the embedded default, with PGlite) keeps V8's default: its memory goal is the tighter one.
 */
import { startEarlyCopy } from "./TemplateCopy.js"

// a new embedded database's files copy while the service's modules load (TemplateCopy.ts)
startEarlyCopy()
const { runHttp } = await import("./Services.js")
runHttp()
