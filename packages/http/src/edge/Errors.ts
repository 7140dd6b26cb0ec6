/** The failures the request edge (edge/) answers for any endpoint. */
import { Failure } from "@app/domain"

export class RequestTimedOut extends Failure("RequestTimedOut", {
  status: 503,
  code: "REQUEST_TIMEOUT",
  message: "The request took too long; please retry later",
  meaning:
    "The request took longer than the server's limit (REQUEST_TIMEOUT_MS) and was abandoned; retry later (a transfer with the same idempotencyKey: it is never applied twice)"
}) {}
