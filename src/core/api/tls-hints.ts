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

const HOW_TO_TRUST =
  "set ca_file in your profile ('jobs config set profiles.<name>.ca_file /path/to/ca.pem'), JOBS_CA_FILE=/path/to/ca.pem, or NODE_EXTRA_CA_CERTS=/path/to/ca.pem (PEM files)";

export function tlsHints(code: string | undefined, caFile: CaFileLabel | undefined): string[] {
  if (code === undefined) return [];
  const inUse = caFile ? [`The CA file ${caFile.path} (from ${caFile.from}) is trusted too, and does not vouch for this certificate.`] : [];
  if (UNTRUSTED.has(code)) {
    return [
      "The service's certificate is not signed by a certificate authority this machine trusts.",
      ...inUse,
      `If your organisation has its own CA, or a proxy that inspects TLS, ${HOW_TO_TRUST}.`,
    ];
  }
  if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID') {
    return [
      `The service's certificate is ${code === 'CERT_HAS_EXPIRED' ? 'out of date' : 'not valid yet'}: check this machine's clock, and tell the service's operators.`,
      `If the certificate comes from your organisation's CA or a TLS-inspecting proxy, its operators must renew it; trusting a CA (ca_file, JOBS_CA_FILE, NODE_EXTRA_CA_CERTS) does not mend an expired certificate.`,
    ];
  }
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    return [
      "The service's certificate is for another host name: check the base URL's host.",
      `If a proxy that inspects TLS signs for the service, trust its CA: ${HOW_TO_TRUST}.`,
    ];
  }
  return [];
}
