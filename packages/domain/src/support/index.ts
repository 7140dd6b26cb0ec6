/** Support tickets: the customer's side (Tickets), the staff's (StaffDesk), and their rules. */
export * from "./Rules.js"
export * from "./StaffDesk.js"
export * from "./Tickets.js"
