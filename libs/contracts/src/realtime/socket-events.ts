/** Channel names of the live socket (spec 01 §7 "Live socket"). */
export const SocketChannels = {
  ticket: (companyId: number) => `company-${companyId}-ticket`,
  appMessage: (companyId: number) => `company-${companyId}-appMessage`,
  whatsapp: (companyId: number) => `company-${companyId}-whatsapp`,
  whatsappSession: (companyId: number) => `company-${companyId}-whatsappSession`,
  contact: (companyId: number) => `company-${companyId}-contact`,
  user: (companyId: number) => `company-${companyId}-user`,
  chat: (companyId: number) => `company-${companyId}-chat`,
  /** per-user auth event: the account signed in elsewhere */
  auth: (companyId: number) => `company-${companyId}-auth`,
} as const;
