/**
 * What to do about a TLS failure, for the error's details: most of them, on a company network, mean
 * a private certificate authority (or a proxy that inspects TLS) that this machine does not trust yet.
 */

/** The CA file in use, as the hint names it. */
export interface CaFileLabel {
  path: string;
  /** `JOBS_CA_FILE`, `~/.config/jobs/config.yaml: profiles.prod.ca_file` */
  from: string;
}

const UNTRUSTED = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_UNTRUSTED',
]);

const TRUST = 'set ca_file in the profile, JOBS_CA_FILE or NODE_EXTRA_CA_CERTS to its PEM file';

/** One clause that ends the error's message, or undefined when the code calls for none. */
export function tlsHint(code: string | undefined, caFile: CaFileLabel | undefined): string | undefined {
  if (code === undefined) return undefined;
  if (UNTRUSTED.has(code)) {
    if (caFile)
      return `the service's certificate is signed neither by an authority this machine trusts nor by the CA file ${caFile.path} (from ${caFile.from})`;
    return `the service's certificate is not signed by an authority this machine trusts: if it is your organisation's own CA (or a proxy that inspects TLS), ${TRUST}`;
  }
  if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID') {
    const when = code === 'CERT_HAS_EXPIRED' ? 'has expired' : 'is not valid yet';
    return `the service's certificate ${when}: check this machine's clock, then tell the service's operators (trusting a CA with ca_file, JOBS_CA_FILE or NODE_EXTRA_CA_CERTS does not mend a certificate's dates)`;
  }
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    return `the service's certificate is for another host name: check the base URL; if a proxy that inspects TLS signs for the service, ${TRUST.replace('its PEM file', "the proxy's CA")}`;
  }
  return undefined;
}
