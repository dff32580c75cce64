/** The directory calling /scim/v2: the provisioning token it presented, and the organisation it belongs to. */
export interface ScimCaller {
  tokenId: number;
  tokenName: string;
  organisationId: number;
  lastUsedAt: Date | null;
}
