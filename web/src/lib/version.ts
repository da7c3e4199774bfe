/** Client version shown in the user menu and compared with the server's announcement. */
export const CLIENT_VERSION = '4.0.2';
export const APP_TITLE = `ERP ${CLIENT_VERSION} Beta`;
/** Query parameter every navigation carries (spec §5, "Other rules"). */
export const VERSION_PARAM = 'v';

/** Spec §4: compare digits only, with the word 'beta' removed. */
export function versionNumber(version: string): number {
  const digits = version.replace(/beta/gi, '').replace(/\D/g, '');
  return digits === '' ? 0 : Number(digits);
}

export function isNewerVersion(server: string | null | undefined, client = CLIENT_VERSION): boolean {
  if (!server) return false;
  return versionNumber(server) > versionNumber(client);
}
