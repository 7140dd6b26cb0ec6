/** The API reference of ops: each operation's summary and description (shared/Reference.ts). */
export const reference = `
## ops.health
Check liveness

Liveness: 200 {status: "up"} whenever the process serves requests. Checks nothing else.

## ops.ready
Check readiness

Readiness: the database answers, every known migration is applied, and the core banking provider answers
its bank list within a short time limit (that answer is reused for 5 seconds). 200 when all hold;
otherwise 503 SERVICE_NOT_READY with \`error.checks\` (each "ok" or the reason) and \`error.failed\`.
`
