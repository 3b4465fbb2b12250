/** The registered licence (one at most). Dates are ISO 8601 strings. */
export interface LicenceInfo {
  companyName: string;
  serialNumber: string;
  /** The licence count: how many active users the licence allows. */
  seats: number;
  expiresAt: string;
  updatedAt: string;
}

/** `/v1/licence/info {}` answers the licence, or `licence: null` when none is registered. */
export interface LicenceInfoAnswer {
  licence: LicenceInfo | null;
  /** Active user accounts, compared with `seats` at sign-in. */
  activeUsers: number;
}
