/**
 * Failures about notification settings.
 */
import { Failure, validation, ValidationKind } from "../shared/Failure.js"

export const NO_SETTING_MESSAGE = "Provide smsEnabled, emailEnabled or both"

/** A settings update that names neither smsEnabled nor emailEnabled: about the request as a whole, a formError. */
export class NoSettingGiven extends Failure("NoSettingGiven", ValidationKind) {
  override answer() {
    return validation({}, [NO_SETTING_MESSAGE])
  }
}
