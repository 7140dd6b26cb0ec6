/**
 * Failures about notification settings.
 */
import { Data } from "effect"

/** A settings update that names neither smsEnabled nor emailEnabled. */
export class NoSettingGiven extends Data.TaggedError("NoSettingGiven")<{}> {}
