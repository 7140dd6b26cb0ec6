import { HttpApiBuilder } from "@effect/platform"
import { Notifications } from "@app/domain"
import { Effect } from "effect"
import { Api } from "../Api.js"
import { mapDomainErrors } from "../DomainErrors.js"
import { signedIn } from "../shared/Security.js"

export const NotificationHandlers = HttpApiBuilder.group(Api, "notifications", (handlers) =>
  handlers.handle("updateNotifications", ({ payload }) =>
    Effect.flatMap(signedIn, (accountId) => Notifications.updateNotificationSettings(accountId, payload)).pipe(
      mapDomainErrors("Customer")
    )))
