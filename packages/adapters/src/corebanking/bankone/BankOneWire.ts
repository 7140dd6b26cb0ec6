/**
 * BankOne's wire format (docs/bankone.md section 3), as the BankOne adapter sends it and the
 * sandbox's BankOne dialect serves it. Every path is appended to CORE_BANKING_URL.
 *
 * Where the token goes differs by API family (B11, B12, B18, B28, B36):
 *   thirdpartyapiservice Account API   → body `AuthenticationCode`
 *   CoreTransactions, Transfer, BVN    → body `Token`
 *   BankOneWebAPI                      → query `authtoken`
 *   BillsPayment/GetCommercialBanks    → the last path segment
 *
 * Request schemas are all strings (BankOne types every field String except the account-opening
 * enums); answer schemas accept the documented fields and ignore the rest. Amount fields of answers
 * are decoded from text: `BankOneMoney.quoteNumbers` turns their numeric literals into strings first.
 */
import { Schema } from "effect"

const THIRD_PARTY = "/thirdpartyapiservice/apiservice"
const WEB_API = "/BankOneWebAPI/api"

export const Paths = {
  accountEnquiry: `${THIRD_PARTY}/Account/AccountEnquiry`,
  activatePnd: `${THIRD_PARTY}/Account/ActivatePND`,
  deactivatePnd: `${THIRD_PARTY}/Account/DeActivatePND`,
  placeLien: `${THIRD_PARTY}/Account/PlaceLien`,
  removeLien: `${THIRD_PARTY}/Account/UnPlaceLien`,
  freeze: `${THIRD_PARTY}/Account/FreezeAccount`,
  unfreeze: `${THIRD_PARTY}/Account/UnFreezeAccount`,
  bvn: `${THIRD_PARTY}/Account/BVN/GetBVNDetails`,
  debit: `${THIRD_PARTY}/CoreTransactions/Debit`,
  credit: `${THIRD_PARTY}/CoreTransactions/Credit`,
  statusQuery: `${THIRD_PARTY}/CoreTransactions/TransactionStatusQuery`,
  nameEnquiry: `${THIRD_PARTY}/Transfer/NameEnquiry`,
  interbankTransfer: `${THIRD_PARTY}/Transfer/InterbankTransfer`,
  interbankStatusQuery: `${THIRD_PARTY}/Transfer/TransactionStatusQuery`,
  /** + `/{token}` */
  commercialBanks: `${THIRD_PARTY}/BillsPayment/GetCommercialBanks`,
  /** ?authtoken= */
  createAccountQuick: `${WEB_API}/Account/CreateAccountQuick/2`,
  /** ?authtoken=&transactionTrackingRef= */
  accountByTrackingRef: `${WEB_API}/Account/GetAccountByTransactionTrackingRef/2`,
  /** ?authtoken=&accountNumber=&fromDate=&toDate=&numberOfItems= */
  transactions: `${WEB_API}/Account/GetTransactions/2`
} as const

/** TSQ `TransactionType` words (B12, B13, B24). */
export const TransactionTypes = { debit: "DEBIT", credit: "CREDIT", transfer: "InterbankTransfer" } as const

/** The transfer / TSQ status words (B19). */
export const StatusWords = ["Successful", "Pending", "Failed", "Reversed", "SuccessfulButFeeNotTaken"] as const

/** Fields whose numeric literals are quoted before parsing (B2). */
export const AmountFields = ["AvailableBalance", "LedgerBalance", "MaximumBalance", "WithdrawableAmount", "Amount", "Balance", "OpeningBalance"]

// ---- requests ----------------------------------------------------------------------------------

export const AccountRequest = Schema.Struct({ AccountNo: Schema.String, AuthenticationCode: Schema.String })

export const LienRequest = Schema.Struct({
  ...AccountRequest.fields,
  ReferenceID: Schema.String,
  /** naira, two decimals */
  Amount: Schema.String,
  Reason: Schema.String
})

export const ReferencedRequest = Schema.Struct({ ...AccountRequest.fields, ReferenceID: Schema.String, Reason: Schema.String })

export const PostingRequest = Schema.Struct({
  RetrievalReference: Schema.String,
  AccountNumber: Schema.String,
  NibssCode: Schema.String,
  /** kobo */
  Amount: Schema.String,
  Fee: Schema.String,
  Narration: Schema.String,
  Token: Schema.String,
  GLCode: Schema.String
})

export const StatusQueryRequest = Schema.Struct({
  RetrievalReference: Schema.String,
  /** YYYY-MM-DD */
  TransactionDate: Schema.String,
  TransactionType: Schema.String,
  /** kobo */
  Amount: Schema.String,
  Token: Schema.String
})

export const NameEnquiryRequest = Schema.Struct({ AccountNumber: Schema.String, BankCode: Schema.String, Token: Schema.String })

export const InterbankTransferRequest = Schema.Struct({
  /** kobo */
  Amount: Schema.String,
  AppzoneAccount: Schema.optional(Schema.String),
  Token: Schema.String,
  PayerAccountNumber: Schema.String,
  Payer: Schema.String,
  RecieversBankCode: Schema.String,
  ReceiverAccountNumber: Schema.String,
  ReceiverName: Schema.String,
  ReceiverPhoneNumber: Schema.String,
  ReceiverAccountType: Schema.String,
  ReceiverKYC: Schema.String,
  ReceiverBVN: Schema.String,
  TransactionReference: Schema.String,
  Narration: Schema.String,
  NIPSessionID: Schema.String
})

export const BvnRequest = Schema.Struct({ BVN: Schema.String, Token: Schema.String })

export const CreateAccountQuickRequest = Schema.Struct({
  TransactionTrackingRef: Schema.String,
  AccountOpeningTrackingRef: Schema.String,
  ProductCode: Schema.String,
  LastName: Schema.String,
  OtherNames: Schema.String,
  PhoneNo: Schema.String,
  /** "0" female, "1" male */
  Gender: Schema.String,
  PlaceOfBirth: Schema.String,
  DateOfBirth: Schema.String,
  Address: Schema.String,
  AccountOfficerCode: Schema.String,
  Email: Schema.String,
  NotificationPreference: Schema.Number,
  TransactionPermission: Schema.String,
  AccountTier: Schema.Number
})

// ---- answers -----------------------------------------------------------------------------------

/** Answer fields BankOne may leave out or send as null. */
const Text = Schema.optional(Schema.NullOr(Schema.String))
const Flag = Schema.optional(Schema.NullOr(Schema.Boolean))

export const AccountEnquiryAnswer = Schema.Struct({
  Name: Text,
  Nuban: Schema.String,
  AvailableBalance: Schema.String,
  LedgerBalance: Schema.String,
  PNDStatus: Schema.String,
  LienStatus: Text,
  FreezeStatus: Schema.String,
  IsSuccessful: Flag,
  RequestStatus: Flag,
  ResponseDescription: Text
})

/** The Account API's answer to a change (B6, B7, B10). */
export const AccountChangeAnswer = Schema.Struct({
  RequestStatus: Flag,
  ResponseDescription: Text,
  ResponseStatus: Text
})

export const PostingAnswer = Schema.Struct({
  IsSuccessful: Flag,
  ResponseMessage: Text,
  ResponseCode: Text,
  Reference: Text
})

/** A posting's answer with the transaction's status word (B19). */
export const StatusQueryAnswer = Schema.Struct({ ...PostingAnswer.fields, Status: Text })

/** Note the spelling `IsSuccessFul` (B18). */
export const InterbankTransferAnswer = Schema.Struct({
  Status: Text,
  StatusDescription: Text,
  IsSuccessFul: Flag,
  ResponseMessage: Text,
  ResponseCode: Text,
  Reference: Text,
  SessionID: Text,
  UniqueIdentifier: Text
})

export const NameEnquiryAnswer = Schema.Struct({
  IsSuccessful: Flag,
  SessionID: Text,
  Name: Text,
  BVN: Text,
  KYC: Text,
  ResponseCode: Text,
  ResponseMessage: Text
})

export const BvnAnswer = Schema.Struct({
  RequestStatus: Flag,
  ResponseMessage: Text,
  BVNDetails: Schema.optional(Schema.NullOr(Schema.Struct({
    BVN: Schema.String,
    FirstName: Schema.String,
    LastName: Schema.String,
    OtherNames: Text,
    DOB: Schema.String,
    phoneNumber: Schema.String
  })))
})

export const CommercialBanksAnswer = Schema.Array(Schema.Struct({ Name: Schema.String, Code: Schema.String }))

export const CreatedAccount = Schema.Struct({
  AccountNumber: Schema.String,
  BankoneAccountNumber: Text,
  CustomerID: Text,
  FullName: Text,
  CreationMessage: Text
})

export const CreateAccountAnswer = Schema.Struct({
  IsSuccessful: Flag,
  CustomerIDInString: Text,
  Message: Schema.optional(Schema.NullOr(Schema.Union(CreatedAccount, Schema.String))),
  TransactionTrackingRef: Text
})

export const TransactionEntry = Schema.Struct({
  ReferenceID: Text,
  Narration: Text,
  /** kobo (B32, assumed), quoted from its literal */
  Amount: Schema.String,
  RecordType: Schema.String,
  TransactionDate: Schema.String
})

export const TransactionsAnswer = Schema.Struct({
  IsSuccessful: Flag,
  Message: Schema.optional(Schema.NullOr(Schema.Union(Schema.Array(TransactionEntry), Schema.String)))
})
