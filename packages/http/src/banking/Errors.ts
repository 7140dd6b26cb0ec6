/** The failures the banking handlers answer themselves. */
import { Failure } from "@app/domain"

export class TestDepositsDisabled extends Failure("TestDepositsDisabled", {
  status: 403,
  code: "TEST_DEPOSITS_DISABLED",
  message: "Test deposits are disabled in production",
  meaning: "The test deposit endpoint is disabled in production"
}) {}

export class WebhookUnauthorized extends Failure("WebhookUnauthorized", {
  status: 401,
  code: "WEBHOOK_UNAUTHORIZED",
  message: "Invalid webhook credentials",
  meaning: "The webhook call lacks the shared secret header, or it is wrong"
}) {}
