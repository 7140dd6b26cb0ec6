/** The failures the request edge (edge/) answers for any endpoint. */
import type { CodeInfo } from "../shared/ErrorTable.js"

export const edgeCodes = {
  REQUEST_TIMEOUT: {
    status: 503,
    meaning:
      "The request took longer than the server's limit (REQUEST_TIMEOUT_MS) and was abandoned; retry later (a transfer with the same idempotencyKey: it is never applied twice)"
  }
} as const satisfies Record<string, CodeInfo>
