/**
 * Email/SMS delivery. There is no real gateway yet: every message is logged (never with its code)
 * and, when NOTIFY_OUTBOX_FILE is set (the default outside production), appended to that file as
 * one JSON line {channel,to,subject,text,kind,code,at} so developers and tests can read codes.
 */
import { Notifier } from "@app/domain"
import { Clock, Effect, Layer, Option } from "effect"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { AppConfig } from "../AppConfig.js"

const mask = (to: string) => (to.includes("@") ? to.replace(/^(.).*(@.*)$/, "$1***$2") : to.replace(/.(?=.{3})/g, "*"))

export const NotifierLive = Layer.effect(
  Notifier,
  Effect.gen(function*() {
    const config = yield* AppConfig
    const outbox = config.notifyOutboxFile
    if (Option.isSome(outbox)) yield* Effect.promise(() => fs.mkdir(path.dirname(outbox.value), { recursive: true }))
    const lock = yield* Effect.makeSemaphore(1)
    return Notifier.of({
      send: (message) =>
        Effect.gen(function*() {
          const at = new Date(yield* Clock.currentTimeMillis).toISOString()
          yield* Effect.logInfo("notification sent").pipe(
            Effect.annotateLogs({ channel: message.channel, to: mask(message.to), kind: message.kind })
          )
          if (Option.isNone(outbox)) return
          const line = JSON.stringify({
            channel: message.channel,
            to: message.to,
            subject: message.subject ?? null,
            text: message.text,
            kind: message.kind,
            code: message.code ?? null,
            at
          })
          yield* lock.withPermits(1)(Effect.promise(() => fs.appendFile(outbox.value, line + "\n")))
        })
    })
  })
)
