/** The failures the profile handlers answer directly (no domain failure of their own). */
import { Failure } from "@app/domain"

export class OriginNotAllowed extends Failure("OriginNotAllowed", {
  status: 403,
  code: "ORIGIN_NOT_ALLOWED",
  message: "Cross-site request refused",
  meaning: "A cookie-authenticated change from a web origin not in APP_ORIGINS, or a request the browser marks cross-site"
}) {}
