/**
 * The outbox file: a development aid. When NOTIFY_OUTBOX_FILE is set (the default outside
 * production) every email and SMS is appended to it as one JSON line {channel,to,subject,text,kind,
 * code,at} so developers and tests can read codes; an email with an HTML body or attachments also
 * has `html` and `attachments` ({filename,contentType,content}), so what a customer receives can be
 * checked whole. It is written whether or not a real transport also sends the message.
 */
import type { OutboundMessage } from "@app/domain"
import { Clock, Effect } from "effect"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { makeFairSemaphore } from "../concurrency/FairSemaphore.js"

/** An appender for `file` (its folder created now); lines never interleave. */
export const makeOutbox = (file: string) =>
  Effect.gen(function*() {
    yield* Effect.promise(() => fs.mkdir(path.dirname(file), { recursive: true }))
    // lines in the order they were asked for (concurrency/FairSemaphore.ts)
    const lock = yield* makeFairSemaphore(1)
    return (message: OutboundMessage) =>
      Effect.gen(function*() {
        const at = new Date(yield* Clock.currentTimeMillis).toISOString()
        const line = JSON.stringify({
          channel: message.channel,
          to: message.to,
          subject: message.subject ?? null,
          text: message.text,
          kind: message.kind,
          code: message.code ?? null,
          at,
          ...(message.html === undefined ? {} : { html: message.html }),
          ...(message.attachments === undefined ? {} : { attachments: message.attachments })
        })
        yield* lock.withPermit(Effect.promise(() => fs.appendFile(file, line + "\n")))
      })
  })
