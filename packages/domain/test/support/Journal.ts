import type { TransferJournal } from "../../src/transfers/Saga.js"

/** The journal of a movement that has not started, for the saga's pure tests and models. */
export const freshJournal: TransferJournal = {
  id: "00000000-0000-4000-8000-000000000001",
  status: "pending",
  pndLifted: false,
  lienPlaced: false,
  debit: "none",
  transfer: "none",
  reversal: "none",
  restored: false,
  failureReason: null,
  retryCount: 0
}
