/**
 * The admin web console (packages/console) at /admin: its built files from packages/console/dist.
 * - `/admin/assets/*` are Vite's content-hashed files: served with their content type and cached for a
 *   year (a new build changes their names); an unknown one is a 404, never the page.
 * - any other path under /admin is a client route of the single-page app: index.html, never cached.
 * - its responses carry CONSOLE_CSP instead of the API's `default-src 'none'`: the app may load its
 *   own scripts, styles, images and call its own origin ('self'), and nothing else (no inline
 *   script, no other origin, no framing).
 * The console only calls /api/v1/admin/* like any other client; nothing here is an API.
 * `npm start` builds dist in the background when it is missing or stale (scripts/ensure-console.mjs);
 * until it is in place the page is a 503 saying so.
 */
import { HttpApiBuilder, HttpApp, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { readFile } from "node:fs/promises"
import * as path from "node:path"

export const CONSOLE_DIST = path.resolve(import.meta.dirname, "../../../console/dist")

export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'"
].join("; ")

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".map": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".webp": "image/webp",
  ".woff2": "font/woff2",
  ".txt": "text/plain; charset=utf-8"
}

const contentType = (file: string) => CONTENT_TYPES[path.extname(file).toLowerCase()] ?? "application/octet-stream"

/** The file under `dist` a request path names, or undefined (outside dist, malformed, a directory). */
export const fileFor = (dist: string, urlPath: string): string | undefined => {
  let relative: string
  try {
    relative = decodeURIComponent(urlPath.replace(/^\/admin\/?/, ""))
  } catch {
    return undefined
  }
  if (relative === "" || relative.includes("\0")) return undefined
  const file = path.resolve(dist, relative)
  return file.startsWith(dist + path.sep) ? file : undefined
}

const read = (file: string) =>
  Effect.tryPromise(() => readFile(file)).pipe(Effect.option)

/** The console's own CSP, set after the API's security headers (this pre-response handler runs last). */
const withConsoleCsp = HttpApp.appendPreResponseHandler((_request, response) =>
  Effect.succeed(HttpServerResponse.setHeader(response, "content-security-policy", CONSOLE_CSP))
)

export const consoleHandler = (dist: string = CONSOLE_DIST) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    yield* withConsoleCsp
    const urlPath = new URL(request.url, "http://localhost").pathname
    const file = fileFor(dist, urlPath)
    if (file !== undefined && path.basename(file) !== "index.html") {
      const bytes = yield* read(file)
      if (bytes._tag === "Some") {
        const hashed = urlPath.startsWith("/admin/assets/")
        return HttpServerResponse.uint8Array(bytes.value, {
          contentType: contentType(file),
          headers: { "cache-control": hashed ? "public, max-age=31536000, immutable" : "no-cache" }
        })
      }
      if (urlPath.startsWith("/admin/assets/")) {
        return HttpServerResponse.text("Not found", { status: 404 })
      }
    }
    const index = yield* read(path.join(dist, "index.html"))
    if (index._tag === "None") {
      return HttpServerResponse.text(
        "The admin console is not built yet: npm start builds it in the background (refresh in a few seconds), or run `npm run build:console`.",
        { status: 503 }
      )
    }
    return HttpServerResponse.uint8Array(index.value, { contentType: CONTENT_TYPES[".html"]! })
  })

/** Mounts the console on the API's router: /admin and every path under it. */
export const ConsoleRoutes = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const handler = consoleHandler()
    yield* router.get("/admin", handler)
    yield* router.get("/admin/*", handler)
  })
)
